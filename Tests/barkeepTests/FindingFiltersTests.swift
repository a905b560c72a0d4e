import BarkeepTestSupport
import Foundation
import Testing

/// The filters a new user tripped over on a real app, through the binaries: no owner, --limit, a directory
/// without its slash, a mistyped key, a false positive without a reason.
@Suite("barkeep findings and status filters end to end")
struct FindingFiltersTests {
    /// The first scan's findings: three under Tests/, one in Sources/Settings, one in Sources/Feed.
    static let findings = [
        "Tests/A.swift", "Tests/B.swift", "Tests/Deep/C.swift", "Sources/Settings/View.swift",
        "Sources/Feed/View.swift",
    ].enumerated().map { index, file in
        #"{"rule":"DUO003","severity":"medium","file":"\#(file)","line":\#(index + 1),"snippet":"s\#(index)"}"#
    }

    /// A daemon with project `app`: five findings (three under Tests/, one in Sources/Settings, one in
    /// Sources/Feed), screens SettingsView (ana's) and Feed and TestsHome (no one's).
    private func makeProject() throws -> TestDaemon {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let directory = try TemporaryDirectory.make(prefix: "barkeep-filters")
        let scan = directory + "/scan.json"
        try #"{"tool":"duo_scan","version":"1.2.2","findings":[\#(Self.findings.joined(separator: ","))]}"#.write(
            toFile: scan, atomically: true, encoding: .utf8)
        let ingested = try daemon.barkeep(["ingest", "app", scan])
        #expect(ingested.0 == 0, "\(ingested)")
        for arguments in [
            ["SettingsView", "--path", "Sources/Settings/**", "--owner", "ana"], ["Feed", "--path", "Sources/Feed/**"],
            ["TestsHome", "--path", "Tests/**"],
        ] {
            let added = try daemon.barkeep(["screen", "add", "app"] + arguments)
            #expect(added.0 == 0, "\(added)")
        }
        return daemon
    }

    @Test("nobody: the owner table's row, status --owner, findings --owner; another word is NOTFOUND in findings")
    func nobody() throws {
        let daemon = try makeProject()
        let status = try daemon.barkeep(["status", "app"])
        #expect(status.0 == 0 && status.1.contains("nobody"), "\(status)")
        let unowned = try daemon.barkeep(["status", "app", "--owner", "nobody", "--json"])
        #expect(unowned.0 == 0, "\(unowned)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(unowned.1.utf8)) as? [String: Any])
        let keys = (object["screens"] as? [[String: Any]])?.compactMap { $0["key"] as? String } ?? []
        #expect(keys == ["Feed", "TestsHome"], "\(keys)")
        let owners = object["owners"] as? [[String: Any]] ?? []
        #expect(owners.count == 1, "\(owners)")
        let text = try daemon.barkeep(["status", "app", "--owner", "nobody"])
        #expect(text.1.contains("\nnobody ") && text.1.contains("\nFeed ") && !text.1.contains("\napp "), "\(text.1)")

        let findings = try daemon.barkeep(["findings", "app", "--owner", "nobody", "--json"])
        #expect(findings.0 == 0, "\(findings)")
        let files = try #require(try JSONSerialization.jsonObject(with: Data(findings.1.utf8)) as? [[String: Any]])
            .compactMap { $0["file"] as? String }
        #expect(files == ["Sources/Feed/View.swift", "Tests/A.swift", "Tests/B.swift", "Tests/Deep/C.swift"])
        let none = try daemon.barkeep(["findings", "app", "--owner", "none"])
        #expect(none.0 == 1 && none.2 == "barkeep: no screen of project 'app' is owned by 'none' (NOTFOUND)\n")
        let ana = try daemon.barkeep(["findings", "app", "--owner", "ana", "--json"])
        #expect(ana.0 == 0 && ana.1.contains("Sources/Settings/View.swift") && !ana.1.contains("Tests/"))

        // The word cannot name a person: a screen given it as owner would never be told apart from nobody's.
        for arguments in [
            ["screen", "set", "app", "Feed", "--owner", "Nobody"],
            ["screen", "add", "app", "X", "--path", "X/**", "--owner", "nobody"],
        ] {
            let refused = try daemon.barkeep(arguments)
            #expect(
                refused.0 == 1 && refused.2.contains("is the word for no owner") && refused.2.contains("(BADARG)"),
                "\(refused)")
        }
        #expect(try daemon.barkeep(["screen", "show", "app", "X"]).0 == 1)
    }

    @Test("findings --file Tests is the directory too")
    func directory() throws {
        let daemon = try makeProject()
        for file in ["Tests", "Tests/"] {
            let listed = try daemon.barkeep(["findings", "app", "--file", file, "--json"])
            let files = try #require(try JSONSerialization.jsonObject(with: Data(listed.1.utf8)) as? [[String: Any]])
                .compactMap { $0["file"] as? String }
            #expect(files == ["Tests/A.swift", "Tests/B.swift", "Tests/Deep/C.swift"], "\(file)")
        }
        #expect(try daemon.barkeep(["findings", "app", "--file", "Test"]).1 == "No findings.\n")

        // A second scan: one finding more; --new-in 2 lists it alone, run 1 the first five.
        let directory = try TemporaryDirectory.make(prefix: "barkeep-filters-2")
        let scan = directory + "/scan.json"
        try #"{"tool":"duo_scan","version":"1.2.2","findings":[\#(Self.findings.joined(separator: ",")),"#
            .appending(#"{"rule":"DUO007","severity":"high","file":"Tests/New.swift","line":1,"snippet":"n"}]}"#)
            .write(toFile: scan, atomically: true, encoding: .utf8)
        #expect(try daemon.barkeep(["ingest", "app", scan]).0 == 0)
        let new = try daemon.barkeep(["findings", "app", "--new-in", "2", "--json"])
        let newFiles = try #require(try JSONSerialization.jsonObject(with: Data(new.1.utf8)) as? [[String: Any]])
            .compactMap { $0["file"] as? String }
        #expect(newFiles == ["Tests/New.swift"], "\(new)")
        #expect(
            try daemon.barkeep(["findings", "app", "--new-in", "1", "--json"]).1.components(separatedBy: "\"id\"").count
                == 6)
        let missing = try daemon.barkeep(["findings", "app", "--new-in", "3"])
        #expect(missing.0 == 1 && missing.2 == "barkeep: no run 3 in project 'app' (NOTFOUND)\n")
    }

    @Test("a mistyped screen key or project name is NOTFOUND with the closest names; false_positive needs a reason")
    func suggestionsAndReasons() throws {
        let daemon = try makeProject()
        let screen = try daemon.barkeep(["screen", "set", "app", "Settingsview", "--title", "Settings"])
        #expect(
            screen.0 == 1
                && screen.2
                    == "barkeep: no screen 'Settingsview' in project 'app' (did you mean 'SettingsView'?) (NOTFOUND)\n",
            "\(screen)")
        let project = try daemon.barkeep(["status", "App"])
        #expect(project.0 == 1 && project.2 == "barkeep: no project named 'App' (did you mean 'app'?) (NOTFOUND)\n")

        let bare = try daemon.barkeep(["finding", "set", "app", "1", "false_positive"])
        #expect(bare.0 == 64 && bare.2.contains("false_positive needs --reason"), "\(bare)")
        let wire = try LineClient(socketPath: daemon.socket)
        try wire.send("FINDING SET app 1 false_positive\n")
        let refusal = try #require(try wire.readLine())
        #expect(refusal.hasPrefix("ERR BADARG"), "\(refusal)")
        let reasoned = try daemon.barkeep(["finding", "set", "app", "1", "false_positive", "--reason", "test code"])
        #expect(reasoned.0 == 0, "\(reasoned)")
    }
}
