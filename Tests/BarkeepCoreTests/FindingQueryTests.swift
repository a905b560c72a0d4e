import BarkeepCore
import Testing

@Suite("FindingQuery")
struct FindingQueryTests {
    typealias Keywords = [(key: String, value: String)]

    static let open = FindingLifecycle.needsWorkStatuses

    @Test(
        "each key, lists and combinations read into the query",
        arguments: [
            ("nothing: the findings that need work", [], FindingQuery(statuses: open)),
            ("status=all", [("status", "all")], FindingQuery()),
            ("status=open", [("status", "open")], FindingQuery(statuses: open)),
            ("one status", [("status", "fixed")], FindingQuery(statuses: [.fixed])),
            (
                "a list, in Core's order, once each", [("status", "approved,proposed,approved")],
                FindingQuery(statuses: [.proposed, .approved])
            ),
            ("open and more", [("status", "open,fixed")], FindingQuery(statuses: open + [.fixed])),
            ("all wins", [("status", "fixed,all")], FindingQuery()),
            (
                "severities", [("severity", "low,critical")],
                FindingQuery(statuses: open, severities: [.critical, .low])
            ),
            ("rules", [("rule", "DUO003,DUO007")], FindingQuery(statuses: open, rules: ["DUO003", "DUO007"])),
            (
                "screens, unmapped and the app area in lower case", [("screen", "Inbox,UNMAPPED,App")],
                FindingQuery(statuses: open, screens: ["Inbox", "unmapped", "app"])
            ),
            ("owner", [("owner", "Ana María")], FindingQuery(statuses: open, owner: "Ana María")),
            ("assignee", [("assignee", "ci@github")], FindingQuery(statuses: open, assignee: .name("ci@github"))),
            ("no assignee", [("assignee", "None")], FindingQuery(statuses: open, assignee: .unassigned)),
            ("source", [("source", "manual")], FindingQuery(statuses: open, source: .manual)),
            ("step number", [("step", "7")], FindingQuery(statuses: open, step: .number(7))),
            ("step key", [("step", "title-and-symbol")], FindingQuery(statuses: open, step: .key("title-and-symbol"))),
            ("file", [("file", "Sources/Inbox/")], FindingQuery(statuses: open, file: "Sources/Inbox/")),
            ("blocked", [("blocked", "yes")], FindingQuery(statuses: open, isBlocked: true)),
            ("not blocked", [("blocked", "no")], FindingQuery(statuses: open, isBlocked: false)),
            (
                "blocked among the statuses asked", [("status", "blocked,proposed"), ("blocked", "yes")],
                FindingQuery(statuses: [.proposed, .blocked], isBlocked: true)
            ),
            (
                "everything at once; other keys left to the command",
                [
                    ("rule", "DUO003"), ("status", "proposed,approved"), ("severity", "medium"), ("screen", "Inbox"),
                    ("owner", "ana"), ("assignee", "sam"), ("source", "scanner"), ("step", "3"),
                    ("file", "a.swift"), ("blocked", "no"), ("reason", "x"), ("dry-run", "yes"),
                ],
                FindingQuery(
                    statuses: [.proposed, .approved], severities: [.medium], rules: ["DUO003"], screens: ["Inbox"],
                    owner: "ana", assignee: .name("sam"), source: .scanner, step: .number(3), file: "a.swift",
                    isBlocked: false)
            ),
        ] as [(String, Keywords, FindingQuery)])
    func parses(_ name: String, _ keywords: Keywords, _ expected: FindingQuery) throws {
        let query = try FindingQuery.parse(keywords: keywords)
        #expect(query == expected, "\(name)")
        // What the query writes back reads as the same query.
        #expect(try FindingQuery.parse(keywords: query.keywords) == query, "\(name)")
    }

    @Test(
        "garbage is refused, naming the key",
        arguments: [
            ("status", "opne", "'opne' is not a status"),
            ("status", "proposed,,fixed", "empty name"),
            ("status", "", "status needs a value"),
            ("status", "Proposed", "'Proposed' is not a status"),
            ("severity", "urgent", "'urgent' is not a severity"),
            ("source", "scanners", "'scanners' is not a source"),
            ("screen", "In box", "'In box' is not a screen key"),
            ("screen", "Inbox,", "empty name"),
            ("assignee", "ana maría", "not a name to assign"),
            ("assignee", "-x", "not a name to assign"),
            ("step", "13", "not a checklist step"),
            ("step", "0", "not a checklist step"),
            ("step", "Order", "not a checklist step"),
            ("blocked", "true", "blocked must be yes or no"),
            ("rule", "DUO\u{1}", "without control characters"),
            ("file", String(repeating: "a", count: 1025), "at most 1024 bytes"),
            ("owner", "ana\n", "without control characters"),
        ])
    func refuses(_ key: String, _ value: String, _ message: String) {
        #expect {
            _ = try FindingQuery.parse(keywords: [(key, value)])
        } throws: { error in
            guard case CoreError.invalidArgument(let refused, let problem) = error else { return false }
            return refused == key && problem.contains(message)
        }
    }

    @Test("a key twice, and blocked=yes beside statuses without blocked, are refused")
    func refusesCombinations() {
        #expect(throws: CoreError.invalidArgument(key: "rule", problem: "rule given twice")) {
            try FindingQuery.parse(keywords: [("rule", "DUO001"), ("rule", "DUO002")])
        }
        #expect {
            try FindingQuery.parse(keywords: [("status", "proposed"), ("blocked", "yes")])
        } throws: { error in
            (error as? CoreError).map { "\($0)" }?.contains("status=proposed leaves them out") == true
        }
    }

    @Test("file= is a path: with a trailing slash the files under it; without, the file and the files under it")
    func fileMatch() throws {
        #expect(FindingQuery.fileMatch("Tests") == ("Tests", "Tests/"))
        #expect(FindingQuery.fileMatch("Tests/") == (nil, "Tests/"))
        #expect(FindingQuery.fileMatch("App/Main.swift") == ("App/Main.swift", "App/Main.swift/"))
        #expect(FindingQuery.upperBound(ofDirectory: "Tests/") == "Tests0")
        // Byte order: every path under Tests/ sorts between the two, Tests.swift and Tests0 do not.
        let (low, high) = (Array("Tests/".utf8), Array(FindingQuery.upperBound(ofDirectory: "Tests/").utf8))
        for path in ["Tests/A.swift", "Tests/\u{E9}", "Tests/\u{10FFFF}"] {
            #expect(
                !Array(path.utf8).lexicographicallyPrecedes(low) && Array(path.utf8).lexicographicallyPrecedes(high))
        }
        for path in ["Tests.swift", "Tests0", "TestsX/a", "Tests-/a"] {
            let bytes = Array(path.utf8)
            #expect(bytes.lexicographicallyPrecedes(low) || !bytes.lexicographicallyPrecedes(high), "\(path)")
        }
        // new-in: a run's number.
        #expect(try FindingQuery.parse(keywords: [("new-in", "3")]).newInRun == 3)
        #expect(
            try FindingQuery.parse(keywords: [("new-in", "3")]).keywords.last.map { "\($0.key)=\($0.value)" }
                == "new-in=3")
        for bad in ["0", "-1", "x", "2147483648"] {
            #expect(throws: CoreError.self) { try FindingQuery.parse(keywords: [("new-in", bad)]) }
        }
        // The owner word for no one, in any case, is kept as Core spells it.
        #expect(try FindingQuery.parse(keywords: [("owner", "NoBody")]).owner == ScreenOwner.nobody)
    }

    @Test("the wire form: status first, always; open when the default, all when none is chosen")
    func keywords() {
        #expect(FindingQuery(statuses: Self.open).keywords.map(\.value) == ["open"])
        #expect(FindingQuery().keywords.map { "\($0.key)=\($0.value)" } == ["status=all"])
        let query = FindingQuery(
            statuses: [.fixed], severities: [.high, .low], assignee: .unassigned, step: .key("order"), isBlocked: true)
        #expect(
            query.keywords.map { "\($0.key)=\($0.value)" } == [
                "status=fixed", "severity=high,low", "assignee=none", "step=order", "blocked=yes",
            ])
        #expect(FindingQuery.keys.count == 11 && Set(FindingQuery.listKeys).isSubset(of: FindingQuery.keys))
    }

    @Test(
        "assignees are token names but none; an actor's person",
        arguments: [
            ("ana", true), ("ci@github", true), ("a.b_c-d", true), ("none", false), ("NONE", false), ("", false),
            ("ana maría", false), ("_ana", false), (String(repeating: "a", count: 65), false),
        ])
    func assignees(_ name: String, _ isValid: Bool) {
        #expect(Assignee.isValid(name) == isValid)
        #expect(Assignee.name(ofActor: "local:" + name) == (isValid ? name : nil))
    }

    @Test(
        "a token's name stands for the part before its first @",
        arguments: [
            ("bo@laptop", "bo"), ("dana@laptop@home", "dana"), ("ci", "ci"), ("a.b_c-d", "a.b_c-d"),
            ("none@laptop", nil), ("@laptop", nil),
        ] as [(String, String?)])
    func tokenPeople(_ token: String, _ person: String?) {
        #expect(Assignee.person(ofToken: token) == person)
        #expect(Assignee.name(ofActor: "token:" + token) == person)
    }

    @Test("an actor's person: token:NAME and local:USER; others are no one")
    func actors() {
        #expect(Assignee.name(ofActor: "token:ci@github") == "ci")
        #expect(Assignee.name(ofActor: "local:root") == "root")
        #expect(Assignee.name(ofActor: "anonymous") == nil)
        #expect(Assignee.name(ofActor: "source:3") == nil)
    }

    @Test(
        "comments: one line of at most 4 KiB",
        arguments: [
            ("Checked with design: keep the toolbar", nil),
            ("tab\tseparated", nil),
            (String(repeating: "é", count: 2048), nil),
            (String(repeating: "é", count: 2049), "at most 4096 bytes"),
            ("", "needs some text"),
            ("   ", "needs some text"),
            ("two\nlines", "one line"),
        ] as [(String, String?)])
    func comments(_ text: String, _ refusal: String?) {
        let refused = FindingComment.refusal(of: text)
        if let refusal {
            #expect(refused?.contains(refusal) == true, "\(refused ?? "accepted")")
        } else {
            #expect(refused == nil)
        }
    }
}
