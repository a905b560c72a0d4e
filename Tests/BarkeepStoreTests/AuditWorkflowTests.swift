import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// The audit workflow against a real database: reference data, screens and attribution, checklist steps, audit
/// items blocked on the SDK, SDK checks, pose verification and the one rule for "done".
@Suite("Audit workflow")
struct AuditWorkflowTests {
    private let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    // MARK: - all-rules.json, by screen

    /// The findings of all-rules.json, as `RULE file:line`, by the file they are in.
    private static let screensFile = [
        "DUO001 Sources/Screens.swift:2", "DUO002 Sources/Screens.swift:3", "DUO003 Sources/Screens.swift:4",
        "DUO004 Sources/Screens.swift:11", "DUO004 Sources/Screens.swift:5", "DUO006 Sources/Screens.swift:6",
        "DUO007 Sources/Screens.swift:7", "DUO009 Sources/Screens.swift:11", "DUO009 Sources/Screens.swift:9",
        "DUO010 Sources/Screens.swift:10",
    ]
    private static let barFile = ["DUO002 Sources/Bar.m:2", "DUO007 Sources/Bar.m:1"]
    private static let menuFile = ["DUO008 Sources/MenuView.swift:4", "DUO011 Sources/MenuView.swift:7"]
    private static let stringsFile = ["DUO013 Sources/Strings.swift:1"]
    private static let unlockFile = ["DUO013 Sources/Unlock.swift:2"]
    private static let appFiles = [
        "DUO005 App/AppDelegate.swift:2", "DUO020 App.xcodeproj/project.pbxproj:2", "DUO020 App/Info.plist:1",
        "DUO021 App.xcodeproj/project.pbxproj:1", "DUO021 App/Info.plist:1",
    ]
    /// The default required poses, in the project's order.
    private static let defaultPoses = ["P1", "P2", "P3", "P4", "P11", "P12"]
    /// The checklist's step keys, step 1 first.
    private static let stepKeys = [
        "container", "order", "title-and-symbol", "informative-text", "axis", "custom-views-fit", "overflow",
        "compression", "priority", "opt-out", "backgrounds", "sheets",
    ]

    // MARK: - Helpers

    /// Ingests all-rules.json (21 findings) into `app`; returns the report.
    @discardableResult
    private func ingestAllRules() throws -> ScanReport {
        let bytes = try Fixtures.bytes("duo_scan/all-rules.json")
        let report = try DuoScanParser.parse(bytes)
        let result = try ScanStore.ingest(
            report, digest: SHA256.hexDigest(of: bytes), into: "app", commit: nil, scope: "", actor: "ci",
            on: connection)
        #expect(result.run.counts.new == 21)
        return report
    }

    @discardableResult
    private func addScreen(_ key: String, _ paths: [String], project: String = "app") throws -> (
        Screen, reattributed: Int
    ) {
        try ScreenStore.add(
            project: project, key: key, title: nil, owner: nil, paths: paths, actor: "ana", on: connection)
    }

    @discardableResult
    private func updateScreen(_ key: String, _ change: ScreenChange) throws -> (Screen, reattributed: Int) {
        try ScreenStore.update(project: "app", key: key, change: change, actor: "ana", on: connection)
    }

    @discardableResult
    private func setStep(
        _ step: String,
        of screen: String,
        to state: StepState,
        note: String? = nil
    ) throws -> StepStatus {
        try StepStore.set(
            project: "app", screen: screen, step: step, to: state, note: note, actor: "ana", on: connection)
    }

    @discardableResult
    private func addItem(
        _ title: String,
        step: Int? = 5,
        needs: [String],
        screen: String = "Inbox",
        sdkForUnknown: SDKVersion? = nil,
        project: String = "app"
    ) throws -> Finding {
        try ItemStore.add(
            NewItem(screen: screen, step: step, title: title, needs: needs, sdkForUnknown: sdkForUnknown),
            to: project, actor: "ana", on: connection)
    }

    @discardableResult
    private func setStatus(_ id: Int64, _ status: FindingStatus, reason: String? = nil) throws -> Finding {
        try FindingStore.setStatus(id: id, to: status, reason: reason, actor: "lead", on: connection)
    }

    @discardableResult
    private func record(_ result: NewPoseResult, project: String = "app") throws -> PoseRecord {
        try PoseStore.record(result, project: project, actor: "qa", on: connection)
    }

    /// A passed result on the device.
    private func passed(_ screen: String, _ pose: String) -> NewPoseResult {
        NewPoseResult(screen: screen, pose: pose, result: .passed, build: "1.4 (210)", device: "iPhone Duo")
    }

    /// The id of the scanner finding of `rule` at `file:line`.
    private func findingID(_ rule: String, _ file: String, _ line: Int) throws -> Int64 {
        try #require(
            try connection.queryValue(
                "SELECT id FROM findings WHERE rule = $1 AND file = $2 AND line = $3", [rule, file, line],
                as: Int64.self))
    }

    /// The findings FindingStore lists for a screen (or `unmapped`): `RULE file:line`, or an item's title; sorted.
    private func listed(on screen: String) throws -> [String] {
        try FindingStore.list(project: "app", filter: FindingFilter(screen: screen), on: connection).map { finding in
            finding.rule.map { "\($0) \(finding.file ?? ""):\(finding.line ?? 0)" } ?? finding.title ?? ""
        }.sorted()
    }

    /// Each scanner finding's screen key (or `unmapped`), by `RULE file:line`.
    private func attribution() throws -> [String: String] {
        var screens: [String: String] = [:]
        for row in try connection.query(
            """
            SELECT f.rule || ' ' || f.file || ':' || f.line AS label, coalesce(s.key, 'unmapped') AS screen
            FROM findings f LEFT JOIN screens s ON s.id = f.screen_id WHERE f.source = 'scanner'
            """
        ) {
            screens[try row.decode("label", as: String.self)] = try row.decode("screen", as: String.self)
        }
        return screens
    }

    /// `labels` all attributed to `screen`.
    private func owned(_ labels: [String], by screen: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: labels.map { ($0, screen) })
    }

    private func count(_ table: String) throws -> Int {
        try connection.queryValue("SELECT count(*) FROM \(table)", as: Int.self) ?? -1
    }

    /// How many rows each table a workflow writes holds: what "nothing is stored" compares.
    private func snapshot() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in [
            "screens", "screen_paths", "findings", "events", "step_states", "pose_results", "project_symbols",
            "scan_runs",
        ] {
            counts[table] = try count(table)
        }
        return counts
    }

    /// A query's rows, every column as PostgreSQL prints it (`NULL` for null).
    private func rows(_ sql: String, _ parameters: [(any PostgresEncodable)?] = []) throws -> [[String]] {
        try connection.query(sql, parameters).map { row in row.values.map { $0 ?? "NULL" } }
    }

    /// status, status_before_block and reason of a finding as stored.
    private func stored(_ id: Int64) throws -> [String] {
        try #require(
            try rows("SELECT status, status_before_block, reason FROM findings WHERE id = $1", [id]).first)
    }

    /// One row of the events table, without its sequence number and time.
    private struct EventRow: Equatable, CustomStringConvertible {
        var kind: String
        var subject: String
        var from: String? = nil
        var to: String? = nil
        var reason: String? = nil
        var findingID: Int64? = nil
        var actor: String

        var description: String {
            let finding = findingID.map(String.init) ?? "-"
            return "\(kind) \(subject): \(from ?? "-") → \(to ?? "-") (\(reason ?? "-")) finding \(finding) by \(actor)"
        }
    }

    /// The events of `kinds` after `seq`, oldest first.
    private func events(_ kinds: [String], after seq: Int64 = 0) throws -> [EventRow] {
        try connection.query(
            """
            SELECT kind, subject, from_value, to_value, reason, finding_id, actor FROM events
            WHERE seq > $1 AND kind = ANY($2::text[]) ORDER BY seq
            """,
            [seq, kinds]
        ).map { row in
            EventRow(
                kind: try row.decode("kind"), subject: try row.decode("subject"),
                from: try row.decodeIfPresent("from_value"),
                to: try row.decodeIfPresent("to_value"), reason: try row.decodeIfPresent("reason"),
                findingID: try row.decodeIfPresent("finding_id"), actor: try row.decode("actor"))
        }
    }

    /// An item change as one comparable line: `ID title on SCREEN: from → to (reason) gate G`.
    private func describe(_ change: ItemChange) -> String {
        "\(change.id) \(change.title) on \(change.screen ?? "unmapped"): "
            + "\(change.from.rawValue) → \(change.to.rawValue)" + (change.reason.map { " (\($0))" } ?? "")
            + (change.gate.map { " gate \($0)" } ?? "")
    }

    private func readiness(of screen: String) throws -> ScreenReadiness {
        try ScreenStore.show(project: "app", key: screen, on: connection).readiness
    }

    /// Why a screen is not done, as the dashboard words it.
    private func reasons(of screen: String) throws -> [String] {
        try ScreenStore.show(project: "app", key: screen, on: connection).readiness.reasons.map(\.description)
    }

    /// An SDK check document: `{"tool":"sdk_check","sdk":…,"symbols":[…]}`.
    private func sdkCheck(sdk: String, _ symbols: [(symbol: String, found: Bool, availability: String?)]) -> [UInt8] {
        let entries = symbols.map { entry in
            let declaration = entry.availability.map { #","declaration":{"availability":"\#($0)"}"# } ?? ""
            return #"{"symbol":"\#(entry.symbol)","found":\#(entry.found)\#(declaration)}"#
        }
        return Array(#"{"tool":"sdk_check","sdk":"\#(sdk)","symbols":[\#(entries.joined(separator: ","))]}"#.utf8)
    }

    private func ingestCheck(_ bytes: [UInt8]) throws -> SDKCheckResult {
        try SDKStore.ingestCheck(
            try SDKCheckParser.parse(bytes), digest: SHA256.hexDigest(of: bytes), into: "app", commit: nil,
            actor: "ci", on: connection)
    }

    // MARK: - Reference data

    /// A domain file's value as the comparison writes it: text as is, null as `NULL`, string lists joined by `|`.
    private static func text(_ value: Any?) -> String {
        switch value {
        case let string as String: string
        case let strings as [String]: strings.joined(separator: "|")
        case let number as Int: String(number)
        default: value == nil || value is NSNull ? "NULL" : "unreadable \(String(describing: value))"
        }
    }

    private func expectSameRows(
        _ stored: [[String]],
        _ expected: [[String]],
        _ table: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let storedSet = Set(stored)
        let expectedSet = Set(expected)
        #expect(stored.count == expected.count, "\(table): row counts differ", sourceLocation: sourceLocation)
        let extra = storedSet.subtracting(expectedSet).map(\.description).sorted()
        let missing = expectedSet.subtracting(storedSet).map(\.description).sorted()
        #expect(
            storedSet == expectedSet, "\(table): not in the domain file \(extra); missing \(missing)",
            sourceLocation: sourceLocation)
    }

    @Test("checklist_steps holds exactly the steps of checklist.json: step, key, summary, rules, 27.1 symbols")
    func checklistReference() throws {
        let steps = try #require(try Fixtures.domain("checklist.json")["steps"] as? [[String: Any]])
        #expect(steps.count == 12)
        let expected = steps.map { step in
            ["step", "key", "summary", "rules", "sdk_27_1_symbols"].map { Self.text(step[$0]) }
        }
        let stored = try rows(
            """
            SELECT step, key, summary, array_to_string(rules, '|'), array_to_string(sdk_symbols, '|')
            FROM checklist_steps
            """)
        expectSameRows(stored, expected, "checklist_steps")
        #expect(try rows("SELECT key FROM checklist_steps ORDER BY step").map { $0[0] } == Self.stepKeys)
    }

    @Test("rules holds exactly the rules of rules.json: id, title, severity, skill, scope, tier, checklist step")
    func rulesReference() throws {
        let rules = try #require(try Fixtures.domain("rules.json")["rules"] as? [[String: Any]])
        #expect(rules.count == 15)
        let expected = rules.map { rule in
            ["id", "title", "severity", "skill", "scope", "tier", "bars_checklist_step"].map { Self.text(rule[$0]) }
        }
        let stored = try rows("SELECT id, title, severity, skill, scope, tier, step FROM rules")
        expectSameRows(stored, expected, "rules")
    }

    @Test("poses holds exactly the poses of poses.json, in its order, and projects require its default poses")
    func posesReference() throws {
        let domain = try Fixtures.domain("poses.json")
        let poses = try #require(domain["poses"] as? [[String: Any]])
        #expect(poses.count == 16)
        let expected = poses.enumerated().map { index, pose in
            [
                Self.text(pose["id"]), String(index + 1), Self.text(pose["state"]),
                (pose["device_only"] as? Bool).map { $0 ? "t" : "f" } ?? "NULL", Self.text(pose["concern"]),
            ]
        }
        let stored = try rows("SELECT id, ordinal, state, device_only, concern FROM poses")
        expectSameRows(stored, expected, "poses")
        #expect(try ProjectStore.require("app", on: connection).requiredPoses == Self.defaultPoses)
        #expect(domain["default_required_for_bars"] as? [String] == Self.defaultPoses)
    }

    @Test("sdk_symbols holds exactly the symbols of sdk-symbols.json: symbol, area, SDK, note")
    func sdkSymbolsReference() throws {
        let symbols = try #require(try Fixtures.domain("sdk-symbols.json")["symbols"] as? [[String: Any]])
        #expect(symbols.count == 84)
        let expected = symbols.map { symbol in ["symbol", "area", "sdk", "note"].map { Self.text(symbol[$0]) } }
        let stored = try rows("SELECT symbol, area, sdk, note FROM sdk_symbols")
        expectSameRows(stored, expected, "sdk_symbols")
    }

    // MARK: - Screens

    @Test("adding screens attributes the project's findings, and the most specific glob wins")
    func screensAttributeFindings() throws {
        try ingestAllRules()
        #expect(try listed(on: "unmapped").count == 21)

        let (screens, byScreens) = try addScreen("Screens", ["Sources/**"])
        #expect(screens.key == "Screens" && screens.paths == ["Sources/**"] && screens.title == nil)
        #expect(byScreens == 16)
        #expect(try listed(on: "Screens").count == 16)

        let (menu, byMenu) = try addScreen("Menu", ["Sources/MenuView.swift"])
        #expect(menu.paths == ["Sources/MenuView.swift"])
        #expect(byMenu == 2)
        // `Sources/*.m` has more literal characters than `Sources/**`.
        let (_, byBar) = try addScreen("Bar", ["Sources/*.m"])
        #expect(byBar == 2)

        #expect(try listed(on: "Menu") == Self.menuFile.sorted())
        #expect(try listed(on: "Bar") == Self.barFile.sorted())
        #expect(try listed(on: "Screens") == (Self.screensFile + Self.stringsFile + Self.unlockFile).sorted())
        #expect(try listed(on: "unmapped") == Self.appFiles.sorted())
        #expect(try listed(on: "Screens").count == 12)
    }

    @Test("a glob another screen owns is refused naming that screen, and nothing is stored")
    func screenGlobTaken() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])
        let before = try snapshot()
        let attributed = try attribution()

        let adding = #expect(throws: StoreError.self) {
            try addScreen("Other", ["Sources/Other/**", "Sources/**"])
        }
        #expect(adding == .conflict("the glob 'Sources/**' already belongs to screen 'Screens'"))
        let taking = #expect(throws: StoreError.self) {
            try updateScreen("Menu", ScreenChange(addPaths: ["Sources/**"]))
        }
        #expect(taking == .conflict("the glob 'Sources/**' already belongs to screen 'Screens'"))

        #expect(try snapshot() == before)
        #expect(try attribution() == attributed)
        #expect(try ScreenStore.list(project: "app", on: connection).map(\.screen.key) == ["Menu", "Screens"])
    }

    @Test("a screen key already taken is a conflict, and nothing is stored")
    func screenKeyTaken() throws {
        try addScreen("Screens", ["Sources/**"])
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) { try addScreen("Screens", ["Other/**"]) }
        #expect(error == .conflict("project 'app' already has a screen 'Screens'"))
        #expect(try snapshot() == before)
        #expect(try rows("SELECT glob FROM screen_paths") == [["Sources/**"]])
    }

    @Test("updating a screen's globs (replace, add, remove) re-attributes findings in the same call")
    func screenGlobsUpdate() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])

        let (replaced, movedByReplace) = try updateScreen("Screens", ScreenChange(paths: ["Sources/Screens.swift"]))
        #expect(replaced.paths == ["Sources/Screens.swift"])
        #expect(movedByReplace == 4)
        #expect(try listed(on: "Screens") == Self.screensFile.sorted())
        #expect(
            try listed(on: "unmapped") == (Self.appFiles + Self.barFile + Self.stringsFile + Self.unlockFile).sorted())

        let (added, movedByAdd) = try updateScreen(
            "Screens", ScreenChange(addPaths: ["Sources/Bar.m", "Sources/Unlock.swift"]))
        #expect(added.paths == ["Sources/Bar.m", "Sources/Screens.swift", "Sources/Unlock.swift"])
        #expect(movedByAdd == 3)
        #expect(try listed(on: "Screens") == (Self.screensFile + Self.barFile + Self.unlockFile).sorted())

        let (removed, movedByRemove) = try updateScreen("Screens", ScreenChange(removePaths: ["Sources/Bar.m"]))
        #expect(removed.paths == ["Sources/Screens.swift", "Sources/Unlock.swift"])
        #expect(movedByRemove == 2)

        let (both, movedByBoth) = try updateScreen(
            "Screens", ScreenChange(addPaths: ["Sources/**"], removePaths: ["Sources/Unlock.swift"]))
        #expect(both.paths == ["Sources/**", "Sources/Screens.swift"])
        #expect(movedByBoth == 3)
        #expect(
            try attribution()
                == owned(Self.screensFile + Self.barFile + Self.stringsFile + Self.unlockFile, by: "Screens")
                .merging(owned(Self.menuFile, by: "Menu")) { $1 }.merging(owned(Self.appFiles, by: "unmapped")) { $1 })

        let (titled, movedByTitle) = try updateScreen("Screens", ScreenChange(title: "Screens", owner: "ana"))
        #expect(titled.title == "Screens" && titled.owner == "ana" && titled.paths == both.paths)
        #expect(movedByTitle == 0)
    }

    @Test("removing a glob the screen does not own is notFound, and nothing changes")
    func screenGlobNotOwned() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])
        let before = try snapshot()
        let attributed = try attribution()

        let missing = #expect(throws: StoreError.self) {
            try updateScreen("Screens", ScreenChange(removePaths: ["Sources/Nope.swift"]))
        }
        #expect(missing == .notFound("screen 'Screens' does not own Sources/Nope.swift"))
        let others = #expect(throws: StoreError.self) {
            try updateScreen("Screens", ScreenChange(removePaths: ["Sources/**", "Sources/MenuView.swift"]))
        }
        #expect(others == .notFound("screen 'Screens' does not own Sources/MenuView.swift"))

        #expect(try snapshot() == before)
        #expect(try attribution() == attributed)
        #expect(try ScreenStore.show(project: "app", key: "Screens", on: connection).screen.paths == ["Sources/**"])
    }

    @Test("removing a screen re-attributes its findings, unmaps its items, deletes its steps and pose results")
    func screenRemove() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])
        try addScreen("Plist", ["App/Info.plist"])
        let item = try addItem("Move the filter menu into the overflow", step: 7, needs: [], screen: "Menu")
        try setStep("order", of: "Menu", to: .done)
        try setStep("order", of: "Screens", to: .done)
        try record(passed("Menu", "P1"))
        try record(passed("Screens", "P1"))

        #expect(try ScreenStore.remove(project: "app", key: "Menu", actor: "ana", on: connection) == 3)
        #expect(try listed(on: "Screens").count == 16)
        #expect(try listed(on: "Screens").filter { $0.contains("MenuView") } == Self.menuFile.sorted())
        let unmappedItem = try FindingStore.show(id: item.id, on: connection).0
        #expect(unmappedItem.screen == nil && unmappedItem.source == "manual" && unmappedItem.status == .proposed)
        #expect(unmappedItem.step == 7 && unmappedItem.title == "Move the filter menu into the overflow")
        // Only the remaining screen's step state and pose result are left.
        #expect(
            try rows("SELECT s.key, t.step FROM step_states t JOIN screens s ON s.id = t.screen_id") == [
                ["Screens", "2"]
            ])
        #expect(
            try rows("SELECT s.key, r.pose FROM pose_results r JOIN screens s ON s.id = r.screen_id") == [
                ["Screens", "P1"]
            ])
        #expect(try count("step_states") == 1 && count("pose_results") == 1)

        // No other screen matches App/Info.plist: its findings go to unmapped, with the item.
        #expect(try ScreenStore.remove(project: "app", key: "Plist", actor: "ana", on: connection) == 2)
        #expect(try listed(on: "unmapped") == (Self.appFiles + ["Move the filter menu into the overflow"]).sorted())

        let removed = try events(["screen.removed"])
        #expect(
            removed == [
                EventRow(kind: "screen.removed", subject: "Menu", from: "Sources/MenuView.swift", actor: "ana"),
                EventRow(kind: "screen.removed", subject: "Plist", from: "App/Info.plist", actor: "ana"),
            ])
        let missing = #expect(throws: StoreError.self) {
            try ScreenStore.remove(project: "app", key: "Menu", actor: "ana", on: connection)
        }
        #expect(missing == .notFound("no screen 'Menu' in project 'app'"))
    }

    @Test("screen.added, screen.updated and screen.removed events record each change, and only changes")
    func screenEvents() throws {
        let start = try EventLog.head(on: connection)
        try addScreen("Inbox", ["Sources/Inbox/**", "Sources/Inbox/**", "Sources/Mail/*.swift"])
        try updateScreen("Inbox", ScreenChange(title: "Inbox", owner: "ana"))
        try updateScreen("Inbox", ScreenChange(title: "Inbox", removePaths: ["Sources/Mail/*.swift"]))
        try updateScreen("Inbox", ScreenChange(paths: ["Sources/Inbox/**"]))
        _ = try ScreenStore.remove(project: "app", key: "Inbox", actor: "ana", on: connection)

        #expect(
            try events(["screen.added", "screen.updated", "screen.removed"], after: start) == [
                EventRow(
                    kind: "screen.added", subject: "Inbox", to: "Sources/Inbox/**,Sources/Mail/*.swift", actor: "ana"),
                EventRow(kind: "screen.updated", subject: "Inbox title", to: "Inbox", actor: "ana"),
                EventRow(kind: "screen.updated", subject: "Inbox owner", to: "ana", actor: "ana"),
                EventRow(
                    kind: "screen.updated", subject: "Inbox paths", from: "Sources/Inbox/**,Sources/Mail/*.swift",
                    to: "Sources/Inbox/**", actor: "ana"),
                EventRow(kind: "screen.removed", subject: "Inbox", from: "Sources/Inbox/**", actor: "ana"),
            ])
    }

    // MARK: - Checklist steps

    @Test("a step with an open finding of its rules cannot be done, by number or key, until the finding is declined")
    func stepBlockedByFinding() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/Screens.swift"])
        let standaloneBar = try findingID("DUO007", "Sources/Screens.swift", 7)
        let before = try snapshot()

        for step in ["1", "container"] {
            let error = #expect(throws: StoreError.self) { try setStep(step, of: "Screens", to: .done) }
            #expect(
                error
                    == .conflict(
                        "step 1 (container) of Screens cannot be done: finding \(standaloneBar) "
                            + "(DUO007 Sources/Screens.swift:7) is open"))
            #expect(error?.description.contains("finding \(standaloneBar) ") == true)
        }
        #expect(try snapshot() == before)

        try setStatus(standaloneBar, .declined, reason: "the camera keeps its own toolbar")
        let status = try setStep("container", of: "Screens", to: .done)
        #expect(status.step == ChecklistStep(number: 1, key: "container", rules: ["DUO007"]))
        #expect(status.recorded == .done && status.blockers.isEmpty && status.effective == .done)
        let readiness = try ScreenStore.show(project: "app", key: "Screens", on: connection).readiness
        #expect(readiness.steps[0].effective == .done)
        #expect(try rows("SELECT step, state, actor FROM step_states") == [["1", "done", "ana"]])
    }

    @Test("a step set done reads as todo once a new finding of its rule opens on the screen")
    func stepReopenedByFinding() throws {
        var report = try ingestAllRules()
        try addScreen("Screens", ["Sources/Screens.swift"])
        try setStatus(try findingID("DUO007", "Sources/Screens.swift", 7), .declined, reason: "kept on purpose")
        try setStep("1", of: "Screens", to: .done)

        report.findings.append(
            ScanFinding(
                rule: "DUO007", title: "Standalone bar instance", severity: "medium", file: "Sources/Screens.swift",
                line: 12, snippet: "let tabs = UITabBar()"))
        let second = try ScanStore.ingest(
            report, digest: SHA256.hexDigest(of: "all-rules plus a tab bar".utf8), into: "app", commit: nil, scope: "",
            actor: "ci", on: connection)
        #expect(second.run.counts.new == 1 && second.run.counts.fixed == 0)
        let tabBar = try findingID("DUO007", "Sources/Screens.swift", 12)

        let step = try ScreenStore.show(project: "app", key: "Screens", on: connection).readiness.steps[0]
        #expect(step.recorded == .done)
        #expect(step.effective == .todo)
        #expect(step.blockers.map(\.id) == [tabBar])
        #expect(
            try reasons(of: "Screens").contains(
                "step 1 (container) is marked done but finding \(tabBar) (DUO007 Sources/Screens.swift:12) "
                    + "of it is open"
            ))
        // What the person recorded stays recorded.
        #expect(try rows("SELECT step, state FROM step_states") == [["1", "done"]])
    }

    @Test("an open item of a step blocks that step only, whether proposed or blocked on the SDK")
    func stepBlockedByItem() throws {
        try addScreen("Compose", ["Sources/Compose/**"])
        let item = try addItem("Give the send button a symbol", step: 3, needs: [], screen: "Compose")
        let axis = try addItem(
            "Keep the recipients field horizontal", step: 5, needs: ["axisBehavior"], screen: "Compose")
        #expect(axis.status == .blocked)

        let title = #expect(throws: StoreError.self) { try setStep("3", of: "Compose", to: .done) }
        #expect(
            title
                == .conflict(
                    "step 3 (title-and-symbol) of Compose cannot be done: finding \(item.id) "
                        + "(Give the send button a symbol) is open"))
        let blocked = #expect(throws: StoreError.self) { try setStep("axis", of: "Compose", to: .done) }
        #expect(
            blocked
                == .conflict(
                    "step 5 (axis) of Compose cannot be done: finding \(axis.id) "
                        + "(Keep the recipients field horizontal) is open"))
        #expect(try setStep("4", of: "Compose", to: .done).recorded == .done)

        try setStatus(item.id, .declined, reason: "the button is text-only by design")
        #expect(try setStep("title-and-symbol", of: "Compose", to: .done).recorded == .done)
        #expect(try rows("SELECT step, state FROM step_states ORDER BY step") == [["3", "done"], ["4", "done"]])
    }

    @Test("an unknown step is invalid and an unknown screen notFound; nothing is stored")
    func stepUnknown() throws {
        try addScreen("Compose", ["Sources/Compose/**"])
        let before = try snapshot()
        for step in ["13", "0", "containers", ""] {
            let error = #expect(throws: StoreError.self) { try setStep(step, of: "Compose", to: .done) }
            #expect(
                error
                    == .invalid(
                        "unknown checklist step '\(step)': steps are 1 to 12 or "
                            + Self.stepKeys.joined(separator: ", ")))
        }
        let screen = #expect(throws: StoreError.self) { try setStep("1", of: "Nope", to: .done) }
        #expect(screen == .notFound("no screen 'Nope' in project 'app'"))
        #expect(try snapshot() == before)
    }

    @Test("every step change writes one step.state event; setting what is already set writes none")
    func stepEvents() throws {
        try addScreen("Compose", ["Sources/Compose/**"])
        try addItem("Give the send button a symbol", step: 3, needs: [], screen: "Compose")
        let start = try EventLog.head(on: connection)

        try setStep("2", of: "Compose", to: .done)
        try setStep("order", of: "Compose", to: .done)
        try setStep("11", of: "Compose", to: .notApplicable, note: "no hero image")
        try setStep("backgrounds", of: "Compose", to: .notApplicable, note: "no hero image")
        try setStep("11", of: "Compose", to: .notApplicable)
        try setStep("2", of: "Compose", to: .todo)
        try setStep("12", of: "Compose", to: .todo)
        _ = #expect(throws: StoreError.self) { try setStep("3", of: "Compose", to: .done) }

        #expect(
            try events(["step.state"], after: start) == [
                EventRow(kind: "step.state", subject: "Compose step 2 (order)", from: "todo", to: "done", actor: "ana"),
                EventRow(
                    kind: "step.state", subject: "Compose step 11 (backgrounds)", from: "todo", to: "not_applicable",
                    reason: "no hero image", actor: "ana"),
                EventRow(kind: "step.state", subject: "Compose step 2 (order)", from: "done", to: "todo", actor: "ana"),
            ])
        #expect(
            try rows("SELECT step, state, coalesce(note, '') FROM step_states ORDER BY step") == [
                ["2", "todo", ""], ["11", "not_applicable", "no hero image"],
            ])
    }

    // MARK: - Audit items

    @Test("an item needing a 27.1 symbol on the 27.0 SDK is added blocked, remembering it was proposed")
    func itemBlockedOn271() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior", "axisBehavior"])
        #expect(item.status == .blocked)
        #expect(item.reason == "needs the iOS 27.1 SDK (axisBehavior)")
        #expect(item.source == "manual" && item.rule == nil && item.file == nil && item.line == nil)
        #expect(item.title == "Keep the filter chip horizontal" && item.screen == "Inbox" && item.step == 5)
        #expect(item.severity == "medium" && item.needs == ["axisBehavior"] && item.gate == nil)
        #expect(try stored(item.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehavior)"])
        #expect(
            try events(["finding.new"]) == [
                EventRow(
                    kind: "finding.new", subject: "Keep the filter chip horizontal", to: "blocked",
                    reason: "needs the iOS 27.1 SDK (axisBehavior)", findingID: item.id, actor: "ana")
            ])
    }

    @Test("an item needing a 27.0 symbol is proposed, gated on 27.0 only while the deployment target is lower")
    func itemAvailableWithGate() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep compose visible when space is short", step: 9, needs: ["visibilityPriority"])
        #expect(item.status == .proposed && item.reason == nil)
        #expect(item.gate == SDKVersion(27, 0))
        #expect(try stored(item.id) == ["proposed", "NULL", "NULL"])
        #expect(
            try events(["finding.new"]) == [
                EventRow(
                    kind: "finding.new", subject: "Keep compose visible when space is short", to: "proposed",
                    findingID: item.id, actor: "ana")
            ])

        _ = try ProjectStore.create(name: "lib", sdk: "27.0", deploymentTarget: "27.0", actor: "test", on: connection)
        try addScreen("Home", ["Sources/**"], project: "lib")
        let ungated = try addItem(
            "Rank the toolbar items", step: 9, needs: ["visibilityPriority"], screen: "Home", project: "lib")
        #expect(ungated.status == .proposed && ungated.gate == nil)
    }

    @Test("an item needing a symbol no SDK declares is blocked, naming it")
    func itemNeedsUndeclaredSymbol() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Minimize the bar on scroll", step: 10, needs: ["barMinimizationBehavior"])
        #expect(item.status == .blocked)
        #expect(item.reason == "needs a symbol no iOS SDK declares (barMinimizationBehavior)")
        #expect(try stored(item.id)[0...1] == ["blocked", "proposed"])
    }

    @Test("an unknown symbol is invalid with a suggestion and stores nothing, unless its SDK is given")
    func itemUnknownSymbol() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) {
            try addItem("Keep the filter chip horizontal", needs: ["axisBehaviour"])
        }
        guard case .invalid(let message) = error else {
            Issue.record("expected invalid, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("unknown SDK symbol 'axisBehaviour'; did you mean axisBehavior"))
        #expect(try snapshot() == before)

        let item = try addItem(
            "Keep the filter chip horizontal", needs: ["axisBehaviour"], sdkForUnknown: SDKVersion(27, 1))
        #expect(item.status == .blocked && item.reason == "needs the iOS 27.1 SDK (axisBehaviour)")
        #expect(try stored(item.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehaviour)"])
        #expect(
            try rows("SELECT symbol, sdk, found, checked_sdk FROM project_symbols") == [
                ["axisBehaviour", "27.1", "NULL", "NULL"]
            ])
        // Once declared, the project knows it: another item needs no SDK for it.
        #expect(try addItem("Another axis item", needs: ["axisBehaviour"]).status == .blocked)
    }

    @Test("an SDK for unknown symbols when every symbol is known is invalid, and stores nothing")
    func itemSDKForKnownSymbols() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) {
            try addItem("Keep the filter chip horizontal", needs: ["axisBehavior"], sdkForUnknown: SDKVersion(27, 1))
        }
        #expect(
            error
                == .invalid(
                    "an SDK version (27.1) is only for symbols the symbol table does not know, and it knows axisBehavior"
                ))
        #expect(try snapshot() == before)
    }

    @Test("an item for an unknown screen or project is notFound, and stores nothing")
    func itemUnknownScreen() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let before = try snapshot()
        let screen = #expect(throws: StoreError.self) { try addItem("Anything", needs: [], screen: "Nope") }
        #expect(screen == .notFound("no screen 'Nope' in project 'app'"))
        let project = #expect(throws: StoreError.self) { try addItem("Anything", needs: [], project: "nope") }
        #expect(project == .notFound("no project named 'nope'"))
        #expect(try snapshot() == before)
    }

    // MARK: - Blocked until the SDK moves

    @Test("moving to the 27.1 SDK unblocks exactly the 27.1 items, gated, one event each, in one transaction")
    func sdkUnblocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let edge = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])
        let compression = try addItem(
            "Compress the toolbar first", step: 8, needs: ["toolbarVerticalCompressionBehavior"])
        let priority = try addItem("Rank the toolbar items", step: 9, needs: ["visibilityPriority"])
        #expect([axis, edge, compression, priority].map(\.status) == [.blocked, .blocked, .blocked, .proposed])
        let start = try EventLog.head(on: connection)

        let update = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection)
        #expect(update.previous.sdk == "27.0" && update.project.sdk == "27.1")
        #expect(
            update.itemChanges.map(describe) == [
                "\(axis.id) Keep the filter chip horizontal on Inbox: blocked → proposed gate 27.1",
                "\(edge.id) Read the bar edge in the header on Inbox: blocked → proposed gate 27.1",
                "\(compression.id) Compress the toolbar first on Inbox: blocked → proposed gate 27.1",
            ])
        let reason = "the project moved to the iOS 27.1 SDK; needs if #available(iOS 27.1, *)"
        #expect(
            try events(["project.updated", "finding.status"], after: start) == [
                EventRow(kind: "project.updated", subject: "sdk", from: "27.0", to: "27.1", actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Keep the filter chip horizontal", from: "blocked",
                    to: "proposed", reason: reason, findingID: axis.id, actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Read the bar edge in the header", from: "blocked",
                    to: "proposed", reason: reason, findingID: edge.id, actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Compress the toolbar first", from: "blocked", to: "proposed",
                    reason: reason, findingID: compression.id, actor: "lead"),
            ])
        for item in [axis, edge, compression, priority] {
            #expect(try stored(item.id) == ["proposed", "NULL", "NULL"])
        }
        #expect(try FindingStore.show(id: axis.id, on: connection).0.gate == SDKVersion(27, 1))
        #expect(try FindingStore.show(id: priority.id, on: connection).0.gate == SDKVersion(27, 0))
        // One transaction: now() is the transaction's start, the same for every row it wrote.
        #expect(
            try connection.queryValue("SELECT count(DISTINCT at) FROM events WHERE seq > $1", [start], as: Int.self)
                == 1)
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM findings WHERE updated_at = (SELECT max(at) FROM events)", as: Int.self) == 3)
    }

    @Test("an item approved before it was blocked returns to approved when the SDK comes back")
    func sdkRestoresApproved() throws {
        _ = try ProjectStore.update(name: "app", sdk: "27.1", actor: "lead", on: connection)
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        #expect(item.status == .proposed && item.gate == SDKVersion(27, 1))
        #expect(try setStatus(item.id, .approved).status == .approved)
        let start = try EventLog.head(on: connection)

        let down = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 0), actor: "lead", on: connection)
        #expect(
            down.itemChanges.map(describe) == [
                "\(item.id) Keep the filter chip horizontal on Inbox: approved → blocked "
                    + "(needs the iOS 27.1 SDK (axisBehavior))"
            ])
        #expect(try stored(item.id) == ["blocked", "approved", "needs the iOS 27.1 SDK (axisBehavior)"])

        let up = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection)
        #expect(
            up.itemChanges.map(describe) == [
                "\(item.id) Keep the filter chip horizontal on Inbox: blocked → approved gate 27.1"
            ])
        #expect(try stored(item.id) == ["approved", "NULL", "NULL"])
        #expect(
            try events(["finding.status"], after: start) == [
                EventRow(
                    kind: "finding.status", subject: "Keep the filter chip horizontal", from: "approved", to: "blocked",
                    reason: "needs the iOS 27.1 SDK (axisBehavior)", findingID: item.id, actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Keep the filter chip horizontal", from: "blocked", to: "approved",
                    reason: "the project moved to the iOS 27.1 SDK; needs if #available(iOS 27.1, *)",
                    findingID: item.id, actor: "lead"),
            ])
    }

    @Test("a blocked item cannot be approved by hand but can be declined, and the SDK leaves declined items alone")
    func sdkBlockedTriage() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let before = try snapshot()
        for status in [FindingStatus.approved, .applied] {
            let error = #expect(throws: StoreError.self) { try setStatus(item.id, status) }
            #expect(
                error
                    == .conflict(
                        "finding \(item.id) is blocked (needs the iOS 27.1 SDK (axisBehavior)); it unblocks when the "
                            + "project's SDK has what it needs (barkeep sdk set), or it can be declined, kept or "
                            + "marked false_positive"))
        }
        #expect(try snapshot() == before)
        #expect(try stored(item.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehavior)"])

        let declined = try setStatus(item.id, .declined, reason: "the chip goes away in the redesign")
        #expect(declined.status == .declined && declined.reason == "the chip goes away in the redesign")
        #expect(try stored(item.id) == ["declined", "NULL", "the chip goes away in the redesign"])

        #expect(
            try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection).itemChanges == [])
        #expect(
            try SDKStore.setSDK(project: "app", to: SDKVersion(27, 0), actor: "lead", on: connection).itemChanges == [])
        #expect(try stored(item.id) == ["declined", "NULL", "the chip goes away in the redesign"])
        #expect(try events(["finding.status"]).map(\.to) == ["declined"])
    }

    @Test("an item re-opened by hand while the SDK still lacks its symbol is not workable: blocked, or refused")
    func sdkReopenedItemStaysBlocked() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        try setStatus(item.id, .declined, reason: "not now")

        // DESIGN.md: with the project's SDK below the symbol's SDK an item is blocked; only the SDK unblocks it.
        do {
            let reopened = try setStatus(item.id, .approved)
            #expect(reopened.status == .blocked, "approved on the 27.0 SDK although it needs axisBehavior (27.1)")
            #expect(try stored(item.id) == ["blocked", "approved", "needs the iOS 27.1 SDK (axisBehavior)"])
        } catch let error as StoreError {
            guard case .conflict = error else {
                Issue.record("expected a conflict, got \(error)")
                return
            }
            #expect(try stored(item.id) == ["declined", "NULL", "not now"])
        }
    }

    @Test("ProjectStore.update with a new SDK unblocks items the same way, and a target at 27.1 needs no gate")
    func projectUpdateUnblocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let hinge = try addItem("Avoid the hinge", step: 6, needs: ["UIHinge", "visibilityPriority"])
        let update = try ProjectStore.update(
            name: "app", sdk: "27.1", deploymentTarget: "27.1", actor: "lead", on: connection)
        #expect(
            update.itemChanges.map(describe) == [
                "\(axis.id) Keep the filter chip horizontal on Inbox: blocked → proposed",
                "\(hinge.id) Avoid the hinge on Inbox: blocked → proposed",
            ])
        #expect(try stored(axis.id) == ["proposed", "NULL", "NULL"])
        #expect(
            try events(["finding.status"]).map(\.reason) == [
                "the project moved to the iOS 27.1 SDK", "the project moved to the iOS 27.1 SDK",
            ])
        #expect(try FindingStore.show(id: hinge.id, on: connection).0.gate == nil)
    }

    @Test("the blocked list has one entry per missing symbol, by SDK (undeclared last), symbol, then item")
    func sdkBlockedList() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let a = try addItem("A", step: 5, needs: ["axisBehavior", "toolbarVerticalEdge"])
        let b = try addItem("B", step: 10, needs: ["barMinimizationBehavior"])
        let c = try addItem("C", step: 6, needs: ["UIHinge", "axisBehavior"])
        let d = try addItem("D", step: 6, needs: ["futureSymbol"], sdkForUnknown: SDKVersion(27, 2))
        let e = try addItem("E", step: 9, needs: ["visibilityPriority", "axisBehavior"])
        try addItem("F", step: 9, needs: ["visibilityPriority"])
        try setStatus(try addItem("G", needs: ["axisBehavior"]).id, .declined, reason: "not needed")

        let entries = try SDKStore.blocked(project: "app", on: connection).map { entry in
            "\(entry.sdk?.description ?? "none") \(entry.symbol) \(entry.finding.title ?? "") \(entry.finding.id)"
        }
        #expect(
            entries == [
                "27.1 UIHinge C \(c.id)",
                "27.1 axisBehavior A \(a.id)",
                "27.1 axisBehavior C \(c.id)",
                "27.1 axisBehavior E \(e.id)",
                "27.1 toolbarVerticalEdge A \(a.id)",
                "27.2 futureSymbol D \(d.id)",
                "none barMinimizationBehavior B \(b.id)",
            ])
    }

    // MARK: - SDK checks

    @Test("an SDK check finding a symbol in the 27.0 SDK unblocks items needing it, gated on 27.0; again is a repeat")
    func sdkCheckUnblocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let edge = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let bytes = sdkCheck(sdk: "27.0", [("toolbarVerticalEdge", true, "iOS 27.0")])

        let result = try ingestCheck(bytes)
        #expect(!result.isRepeat && result.checkedSDK == SDKVersion(27, 0))
        #expect(result.found == 1 && result.symbols == 1)
        #expect(result.run.format == "sdk-check" && result.run.tool == "sdk_check" && result.run.actor == "ci")
        #expect(
            result.itemChanges.map(describe) == [
                "\(edge.id) Read the bar edge in the header on Inbox: blocked → proposed gate 27.0"
            ])
        #expect(try stored(edge.id) == ["proposed", "NULL", "NULL"])
        #expect(try stored(axis.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehavior)"])
        #expect(try FindingStore.show(id: edge.id, on: connection).0.gate == SDKVersion(27, 0))
        #expect(
            try rows("SELECT symbol, sdk, found, checked_sdk, checked_run FROM project_symbols") == [
                ["toolbarVerticalEdge", "27.0", "t", "27.0", String(result.run.id)]
            ])
        #expect(
            try events(["sdk.checked", "finding.status"]) == [
                EventRow(
                    kind: "sdk.checked", subject: "sdk_check", to: "1 of 1 symbols in the iOS 27.0 SDK", actor: "ci"),
                EventRow(
                    kind: "finding.status", subject: "Read the bar edge in the header", from: "blocked",
                    to: "proposed",
                    reason: "the SDK check found its symbols in the iOS 27.0 SDK; needs if #available(iOS 27.0, *)",
                    findingID: edge.id, actor: "ci"),
            ])

        let before = try snapshot()
        let again = try ingestCheck(bytes)
        #expect(again.isRepeat && again.run.id == result.run.id && again.itemChanges.isEmpty)
        #expect(try snapshot() == before)
    }

    @Test("an SDK check not finding a symbol the table dates at or below the project's SDK blocks items needing it")
    func sdkCheckBlocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Rank the toolbar items", step: 9, needs: ["visibilityPriority"])
        #expect(item.status == .proposed)

        let result = try ingestCheck(sdkCheck(sdk: "27.0", [("visibilityPriority", false, nil)]))
        #expect(result.found == 0 && result.symbols == 1)
        let reason = "the SDK check did not find visibilityPriority in the iOS 27.0 SDK"
        #expect(
            result.itemChanges.map(describe) == [
                "\(item.id) Rank the toolbar items on Inbox: proposed → blocked (\(reason))"
            ])
        #expect(try stored(item.id) == ["blocked", "proposed", reason])
        #expect(
            try events(["finding.status"]) == [
                EventRow(
                    kind: "finding.status", subject: "Rank the toolbar items", from: "proposed", to: "blocked",
                    reason: reason, findingID: item.id, actor: "ci")
            ])
        // A new item needing it is blocked from the start.
        #expect(try addItem("Rank the tab items", step: 9, needs: ["visibilityPriority"]).reason == reason)
    }

    @Test("a check of the 27.1 SDK on a 27.0 project decides nothing until the project moves to 27.1")
    func sdkCheckOfAnotherSDK() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let minimize = try addItem("Minimize the bar on scroll", step: 10, needs: ["barMinimizationBehavior"])
        let edge = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])

        let result = try ingestCheck(
            sdkCheck(
                sdk: "27.1",
                [
                    ("axisBehavior", false, nil), ("barMinimizationBehavior", true, "iOS 27.1"),
                    ("toolbarVerticalEdge", true, "@available(iOS 27.1, *)"),
                ]))
        #expect(!result.isRepeat && result.checkedSDK == SDKVersion(27, 1) && result.found == 2)
        #expect(result.itemChanges.isEmpty)
        #expect([axis, minimize, edge].map { (try? stored($0.id))?.first } == ["blocked", "blocked", "blocked"])
        #expect(try stored(axis.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehavior)"])
        #expect(try events(["finding.status"]).isEmpty)

        let update = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection)
        #expect(
            update.itemChanges.map(describe) == [
                "\(minimize.id) Minimize the bar on scroll on Inbox: blocked → proposed gate 27.1",
                "\(edge.id) Read the bar edge in the header on Inbox: blocked → proposed gate 27.1",
            ])
        #expect(
            try stored(axis.id) == [
                "blocked", "proposed", "the SDK check did not find axisBehavior in the iOS 27.1 SDK",
            ])
    }

    @Test("an SDK check that does not parse stores nothing")
    func sdkCheckParseError() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])
        let before = try snapshot()
        let bytes = Array(
            #"{"tool":"sdk_check","sdk":"27.0","symbols":[{"symbol":"toolbarVerticalEdge","found":"yes"}]}"#.utf8)
        let error = #expect(throws: CoreError.self) { try ingestCheck(bytes) }
        #expect(error == .invalidDocument(path: "symbols[0].found", problem: "expected true or false"))
        let badSDK = #expect(throws: CoreError.self) {
            try ingestCheck(Array(#"{"sdk":"27.x","symbols":[]}"#.utf8))
        }
        #expect(badSDK == .invalidDocument(path: "sdk", problem: "expected a version such as 27.1"))
        #expect(try snapshot() == before)
        #expect(try count("scan_runs") == 0)
        #expect(try stored(item.id).first == "blocked")
    }

    // MARK: - Poses

    /// A pose result the recording rules refuse, and the error.
    struct PoseRefusal: Sendable, CustomTestStringConvertible {
        var name: String
        var result: NewPoseResult
        var error: StoreError
        var testDescription: String { name }
    }

    static let poseRefusals: [PoseRefusal] = [
        PoseRefusal(
            name: "failed without a screenshot",
            result: NewPoseResult(screen: "Inbox", pose: "P3", result: .failed, itemTitle: "Toolbar overlaps"),
            error: .invalid("a failed pose needs the path of the screenshot that shows it")),
        PoseRefusal(
            name: "failed without a finding or item",
            result: NewPoseResult(screen: "Inbox", pose: "P3", result: .failed, screenshot: "p3.png", itemTitle: ""),
            error: .invalid("a failed pose needs the finding it maps to, or the title of an item to create for it")),
        PoseRefusal(
            name: "not run without a reason",
            result: NewPoseResult(screen: "Inbox", pose: "P11", result: .notRun, reason: ""),
            error: .invalid("a pose not run needs a reason")),
        PoseRefusal(
            name: "a device-only pose passed on the simulator",
            result: NewPoseResult(screen: "Inbox", pose: "P10", result: .passed, device: "iPhone Duo Simulator"),
            error: .invalid(
                "P10 can only be verified on a device, not on iPhone Duo Simulator: record it as not_run with a reason")
        ),
        PoseRefusal(
            name: "an unknown pose",
            result: NewPoseResult(screen: "Inbox", pose: "P17", result: .passed),
            error: .invalid("unknown pose 'P17': poses are P1 to P16")),
        PoseRefusal(
            name: "an unknown screen",
            result: NewPoseResult(screen: "Nope", pose: "P1", result: .passed),
            error: .notFound("no screen 'Nope' in project 'app'")),
        PoseRefusal(
            name: "a failure mapped to no finding that exists",
            result: NewPoseResult(
                screen: "Inbox", pose: "P3", result: .failed, screenshot: "p3.png", findingID: 999_999),
            error: .notFound("no finding 999999 in project 'app'")),
    ]

    @Test("a pose result breaking a recording rule is refused and stores nothing", arguments: poseRefusals)
    func poseRefused(_ refusal: PoseRefusal) throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) { try record(refusal.result) }
        #expect(error == refusal.error)
        #expect(try snapshot() == before)
    }

    @Test("a failure mapped to another project's finding is notFound, and stores nothing")
    func poseFindingOfAnotherProject() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        _ = try ProjectStore.create(name: "other", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        try addScreen("Home", ["Sources/**"], project: "other")
        let foreign = try addItem("Someone else's item", step: 1, needs: [], screen: "Home", project: "other")
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) {
            try record(
                NewPoseResult(screen: "Inbox", pose: "P3", result: .failed, screenshot: "p3.png", findingID: foreign.id)
            )
        }
        #expect(error == .notFound("no finding \(foreign.id) in project 'app'"))
        #expect(try snapshot() == before)
    }

    @Test("a failure with an item title creates a manual item on the screen and maps the result to it")
    func poseFailureCreatesItem() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let result = try record(
            NewPoseResult(
                screen: "Inbox", pose: "P3", result: .failed, screenshot: "shots/inbox-p3.png",
                itemTitle: "Toolbar overlaps the hinge", build: "1.4 (210)", device: "iPhone Duo"))
        #expect(result.screen == "Inbox" && result.pose == "P3" && result.result == .failed)
        #expect(result.screenshot == "shots/inbox-p3.png" && result.reason == nil && result.actor == "qa")
        #expect(result.build == "1.4 (210)" && result.device == "iPhone Duo")
        let itemID = try #require(result.findingID)
        let item = try FindingStore.show(id: itemID, on: connection).0
        #expect(item.source == "manual" && item.title == "Toolbar overlaps the hinge" && item.screen == "Inbox")
        #expect(item.step == nil && item.status == .proposed && item.needs.isEmpty && item.severity == "medium")
        #expect(
            try events(["finding.new", "pose.recorded"]) == [
                EventRow(
                    kind: "finding.new", subject: "Toolbar overlaps the hinge", to: "proposed", findingID: itemID,
                    actor: "qa"),
                EventRow(
                    kind: "pose.recorded", subject: "Inbox P3", to: "failed", reason: "shots/inbox-p3.png",
                    findingID: itemID, actor: "qa"),
            ])
    }

    @Test("not run with a reason, and a device-only pose passed on a device, are recorded")
    func poseAccepted() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let notRun = try record(
            NewPoseResult(
                screen: "Inbox", pose: "P10", result: .notRun, reason: "device only",
                device: "iPhone Duo Simulator"))
        #expect(notRun.result == .notRun && notRun.reason == "device only" && notRun.findingID == nil)
        let onDevice = try record(passed("Inbox", "P10"))
        #expect(onDevice.result == .passed && onDevice.device == "iPhone Duo" && onDevice.pose == "P10")
        #expect(try count("pose_results") == 2 && count("findings") == 0)
        #expect(try events(["pose.recorded"]).map(\.to) == ["not_run", "passed"])
    }

    @Test("history is append-only; the matrix shows the latest result per screen and required pose, in order")
    func poseHistoryAndMatrix() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        try addScreen("Compose", ["Sources/Compose/**"])
        let first = try record(passed("Inbox", "P1"))
        let failure = try record(
            NewPoseResult(
                screen: "Inbox", pose: "P1", result: .failed, screenshot: "p1.png", itemTitle: "Back button hidden"))
        let latest = try record(passed("Inbox", "P1"))
        try record(NewPoseResult(screen: "Inbox", pose: "P11", result: .notRun, reason: "no RTL build yet"))
        try record(passed("Compose", "P2"))
        try record(passed("Compose", "P5"))

        let history = try PoseStore.history(project: "app", screen: "Inbox", pose: "P1", on: connection)
        #expect(history.map(\.id) == [first.id, failure.id, latest.id])
        #expect(history.map(\.result) == [.passed, .failed, .passed])
        #expect(history.map(\.findingID) == [nil, failure.findingID, nil])
        #expect(try PoseStore.history(project: "app", screen: "Inbox", pose: nil, on: connection).count == 4)

        func cells(_ screen: String? = nil) throws -> [String] {
            try PoseStore.matrix(project: "app", screen: screen, on: connection).map { cell in
                "\(cell.screen) \(cell.pose) \(cell.latest?.result.rawValue ?? "-")"
            }
        }
        #expect(
            try cells() == [
                "Compose P1 -", "Compose P2 passed", "Compose P3 -", "Compose P4 -", "Compose P11 -", "Compose P12 -",
                "Inbox P1 passed", "Inbox P2 -", "Inbox P3 -", "Inbox P4 -", "Inbox P11 not_run", "Inbox P12 -",
            ])
        #expect(try PoseStore.matrix(project: "app", screen: "Inbox", on: connection).first?.latest?.id == latest.id)
        #expect(
            try cells("Inbox") == [
                "Inbox P1 passed", "Inbox P2 -", "Inbox P3 -", "Inbox P4 -", "Inbox P11 not_run", "Inbox P12 -",
            ])

        let update = try ProjectStore.update(name: "app", requiredPoses: ["P1", "P5"], actor: "lead", on: connection)
        #expect(update.project.requiredPoses == ["P1", "P5"])
        #expect(try cells() == ["Compose P1 -", "Compose P5 passed", "Inbox P1 passed", "Inbox P5 -"])
        #expect(try count("pose_results") == 6)
    }

    @Test("an unknown pose in the required poses is invalid, and changes nothing")
    func requiredPosesUnknown() throws {
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) {
            try ProjectStore.update(name: "app", requiredPoses: ["P1", "P17"], actor: "lead", on: connection)
        }
        #expect(error == .invalid("unknown pose P17: the poses are P1 to P16 (see barkeep poses)"))
        #expect(try ProjectStore.require("app", on: connection).requiredPoses == Self.defaultPoses)
        #expect(try snapshot() == before)
    }

    // MARK: - Done

    @Test("a screen is done exactly when no finding needs work, every step is settled and every required pose passed")
    func screenDone() throws {
        try ingestAllRules()
        try addScreen("Menu", ["Sources/MenuView.swift"])
        let navigationView = try findingID("DUO008", "Sources/MenuView.swift", 4)
        let overflow = try findingID("DUO011", "Sources/MenuView.swift", 7)
        let labels = [navigationView: "DUO008 Sources/MenuView.swift:4", overflow: "DUO011 Sources/MenuView.swift:7"]
        let openFindings =
            "2 findings need work: "
            + labels.keys.sorted().map { "\($0) (\(labels[$0, default: ""]))" }.joined(separator: ", ")
        let stepsToDo = Self.stepKeys.enumerated().map { "step \($0.offset + 1) (\($0.element)) is to do" }
        let posesWithoutResult = Self.defaultPoses.map { "pose \($0) has no result" }

        // Nothing done yet.
        #expect(try reasons(of: "Menu") == [openFindings] + stepsToDo + posesWithoutResult)
        #expect(try readiness(of: "Menu").isDone == false)

        // Findings settled.
        try setStatus(navigationView, .declined, reason: "NavigationView stays while iOS 15 is supported")
        try setStatus(overflow, .kept, reason: "the filter menu is not an overflow")
        #expect(try reasons(of: "Menu") == stepsToDo + posesWithoutResult)

        // Steps: all but one settled, then that one.
        for step in ["1", "2", "3", "4", "6", "7", "9"] { try setStep(step, of: "Menu", to: .done) }
        for step in ["5", "8", "10", "11"] { try setStep(step, of: "Menu", to: .notApplicable) }
        #expect(try reasons(of: "Menu") == ["step 12 (sheets) is to do"] + posesWithoutResult)
        #expect(try readiness(of: "Menu").stepCounts == (7, 8))
        try setStep("sheets", of: "Menu", to: .notApplicable)
        #expect(try reasons(of: "Menu") == posesWithoutResult)
        #expect(try readiness(of: "Menu").stepCounts == (7, 7))

        // Poses: the last one not run, then passed.
        for pose in ["P1", "P2", "P3", "P4", "P11"] { try record(passed("Menu", pose)) }
        #expect(try reasons(of: "Menu") == ["pose P12 has no result"])
        #expect(try readiness(of: "Menu").passedPoses == ["P1", "P2", "P3", "P4", "P11"])
        try record(NewPoseResult(screen: "Menu", pose: "P12", result: .notRun, reason: "no Reduce Transparency build"))
        #expect(try reasons(of: "Menu") == ["pose P12 was not run"])
        try record(passed("Menu", "P12"))
        #expect(try readiness(of: "Menu").isDone)
        #expect(try reasons(of: "Menu") == [])
        #expect(try readiness(of: "Menu").passedPoses == Self.defaultPoses)

        // A later failure of a passed pose undoes it; passing again redoes it.
        try record(
            NewPoseResult(screen: "Menu", pose: "P3", result: .failed, screenshot: "p3.png", findingID: navigationView))
        #expect(try reasons(of: "Menu") == ["pose P3 failed"])
        #expect(try readiness(of: "Menu").isDone == false)
        try record(passed("Menu", "P3"))
        #expect(try readiness(of: "Menu").isDone)

        // A newly required pose must pass too.
        _ = try ProjectStore.update(
            name: "app", requiredPoses: Self.defaultPoses + ["P5"], actor: "lead", on: connection)
        #expect(try reasons(of: "Menu") == ["pose P5 has no result"])
        try record(passed("Menu", "P5"))
        #expect(try readiness(of: "Menu").isDone)

        // A new item of a done step: the finding needs work and the step is open again.
        let item = try addItem("Merge the sort menu into the overflow", step: 7, needs: [], screen: "Menu")
        let reference = "\(item.id) (Merge the sort menu into the overflow)"
        #expect(
            try reasons(of: "Menu") == [
                "finding \(reference) needs work",
                "step 7 (overflow) is marked done but finding \(reference) of it is open",
            ])
        try setStatus(item.id, .declined, reason: "the sort menu stays")
        #expect(try readiness(of: "Menu").isDone)
        let listed = try ScreenStore.list(project: "app", on: connection)
        #expect(listed.map(\.screen.key) == ["Menu"])
        #expect(listed.first?.readiness.isDone == true && listed.first?.openFindings == 0)
    }
}
