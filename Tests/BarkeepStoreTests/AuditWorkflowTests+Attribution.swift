import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Re-attribution under the changed globs only

    /// Files whose names LIKE could confuse (`_`, `%`, `\`), an accent composed and decomposed, and app files.
    static let attributionFiles = [
        "Sources/Inbox/List.swift", "Sources/Inbox/ListRow.swift", "Sources/Inbox/Compose/View.swift",
        "Sources/Settings/View.swift", "Sources/Caf\u{E9}/View.swift", "Sources/Cafe\u{301}/Row.swift",
        "Sources/a_b/View.swift", "Sources/a%b/View.swift", "Sources/axb/View.swift", "Sources/back\\slash/View.swift",
        "App/Info.plist", "Other/Thing.m",
    ]

    /// Ingests two findings in each of `attributionFiles` into `app`.
    func ingestAttributionFiles() throws {
        var findings: [String] = []
        for (index, file) in Self.attributionFiles.enumerated() {
            let quoted = file.replacingOccurrences(of: "\\", with: "\\\\")
            for line in [3, 9] {
                findings.append(
                    """
                    {"id":"f\(index)-\(line)","rule":"DUO001","title":"t","severity":"high","skill":"s",\
                    "file":"\(quoted)","line":\(line),"snippet":"x\(line)","source":"talk","advice":"a"}
                    """)
            }
        }
        let document = Array(
            """
            {"tool":"duo_scan","version":"1.2.2","root":"/src","source_files_scanned":12,\
            "project":{"lifecycle":"scene"},"findings":[\(findings.joined(separator: ","))]}
            """.utf8)
        let result = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: document), format: .duoScan, project: "app", actor: "ci"),
            scan: try DuoScanParser.parse(document), on: connection)
        #expect(result.run.counts.new == 24)
    }

    /// How many findings a full re-attribution of `app` would still move (none when the last change left every
    /// finding where the rule puts it).
    func fullReattribution() throws -> Int {
        let project = try #require(
            try connection.queryValue("SELECT id FROM projects WHERE name = 'app'", as: Int64.self))
        return try ScreenAttributionStore.reattribute(projectID: project, on: connection)
    }

    /// The screen key (or `unmapped`) of the findings in `file`.
    func screen(of file: String) throws -> String {
        let keys = try rows(
            """
            SELECT DISTINCT coalesce(s.key, 'unmapped') FROM findings f LEFT JOIN screens s ON s.id = f.screen_id
            WHERE f.file = $1
            """,
            [file])
        return keys.count == 1 ? keys[0][0] : "\(keys)"
    }

    @Test("adding, changing and removing screens leaves every finding where a full re-attribution puts it")
    func changedGlobsReattributeLikeAll() throws {
        try ingestAttributionFiles()
        let steps: [(String, () throws -> Void)] = [
            ("add Sources/**", { try self.addScreen("Screens", ["Sources/**"]) }),
            ("add Sources/Inbox/**", { try self.addScreen("Inbox", ["Sources/Inbox/**"]) }),
            ("add Sources/a_b/*", { try self.addScreen("Underscore", ["Sources/a_b/*"]) }),
            ("add Sources/a%b/*", { try self.addScreen("Percent", ["Sources/a%b/*"]) }),
            ("add Sources/back\\slash/*", { try self.addScreen("Backslash", ["Sources/back\\slash/*"]) }),
            ("add Sources/Caf\u{E9}/*", { try self.addScreen("Cafe", ["Sources/Caf\u{E9}/*"]) }),
            ("add **/View.swift", { try self.addScreen("Views", ["**/View.swift"]) }),
            ("Inbox to List*", { try self.updateScreen("Inbox", ScreenChange(paths: ["Sources/Inbox/List*"])) }),
            ("Screens adds Other/*", { try self.updateScreen("Screens", ScreenChange(addPaths: ["Other/*"])) }),
            ("add Other/Thing.m", { try self.addScreen("Thing", ["Other/Thing.m"]) }),
            (
                "Views drops its glob",
                { try self.updateScreen("Views", ScreenChange(removePaths: ["**/View.swift"])) }
            ),
            (
                "remove Cafe",
                { _ = try ScreenStore.remove(project: "app", key: "Cafe", actor: "ana", on: self.connection) }
            ),
            (
                "remove Thing",
                { _ = try ScreenStore.remove(project: "app", key: "Thing", actor: "ana", on: self.connection) }
            ),
            (
                "remove Underscore",
                { _ = try ScreenStore.remove(project: "app", key: "Underscore", actor: "ana", on: self.connection) }
            ),
        ]
        var seen: Set<[String: String]> = []
        for (name, step) in steps {
            try step()
            #expect(try fullReattribution() == 0, "after \(name)")
            seen.insert(try attribution())
        }
        // Every step moved something.
        #expect(seen.count == steps.count)
    }

    @Test("a glob matches a composed and a decomposed accent alike, and LIKE's own characters are literal")
    func reattributionCharacters() throws {
        try ingestAttributionFiles()
        try addScreen("Cafe", ["Sources/Caf\u{E9}/*"])
        try addScreen("Underscore", ["Sources/a_b/*"])
        try addScreen("Backslash", ["Sources/back\\slash/*"])
        #expect(try screen(of: "Sources/Caf\u{E9}/View.swift") == "Cafe")
        #expect(try screen(of: "Sources/Cafe\u{301}/Row.swift") == "Cafe")
        #expect(try screen(of: "Sources/a_b/View.swift") == "Underscore")
        #expect(try screen(of: "Sources/axb/View.swift") == "unmapped")
        #expect(try screen(of: "Sources/back\\slash/View.swift") == "Backslash")
    }

    @Test("a glob change reads and moves only the findings under its literal prefix")
    func reattributionStaysUnderPrefix() throws {
        try ingestAttributionFiles()
        try addScreen("Screens", ["Sources/**"])
        // A finding outside the next glob's prefix, left stale on purpose: only a full re-attribution would mend it.
        try connection.query("UPDATE findings SET screen_id = NULL WHERE file = 'Sources/Settings/View.swift'")

        let (_, moved) = try addScreen("Inbox", ["Sources/Inbox/**"])
        #expect(moved == 6)
        #expect(try screen(of: "Sources/Inbox/Compose/View.swift") == "Inbox")
        #expect(try screen(of: "Sources/Settings/View.swift") == "unmapped")

        let (_, narrowed) = try updateScreen("Inbox", ScreenChange(paths: ["Sources/Inbox/List*"]))
        #expect(narrowed == 2)
        #expect(try screen(of: "Sources/Inbox/Compose/View.swift") == "Screens")
        #expect(try screen(of: "Sources/Inbox/ListRow.swift") == "Inbox")
        #expect(try screen(of: "Sources/Settings/View.swift") == "unmapped")

        let removed = try ScreenStore.remove(project: "app", key: "Inbox", actor: "ana", on: connection)
        #expect(removed == 4)
        #expect(try screen(of: "Sources/Inbox/ListRow.swift") == "Screens")
        #expect(try screen(of: "Sources/Settings/View.swift") == "unmapped")
        // Only the stale finding's two rows were left for a full re-attribution.
        #expect(try fullReattribution() == 2)
    }

    @Test(
        "the LIKE pattern of a glob: its ASCII literal ends, escaped",
        arguments: [
            ("Sources/Inbox/**", "Sources/Inbox/%"), ("**/View.swift", "%View.swift"), ("A/B.swift", "A/B.swift"),
            ("a_b/*%", "a\\_b/%\\%"), ("x\\y/?", "x\\\\y/%"), ("Caf\u{E9}/*.m", "Caf%.m"), ("Caf\u{E9}", "Caf%"),
            ("S/*/e\u{301}", "S/%"),
        ])
    func likePatterns(glob: String, pattern: String) {
        #expect(ScreenAttributionStore.likePattern(glob) == pattern)
    }
}
