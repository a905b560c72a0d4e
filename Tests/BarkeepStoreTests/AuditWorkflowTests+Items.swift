import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Audit items

    @Test("every finding gets the next number of its project at creation, kept when later scans see it again")
    func findingNumbers() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        _ = try ingestAllRules()
        let item = try addItem("Keep the filter chip horizontal", needs: [])
        #expect(item.number == 22)
        let numbers = try FindingStore.list(project: "app", query: FindingQuery(), on: connection).map(\.number)
        #expect(numbers.sorted() == Array(1...22))
        // Numbers are per project.
        _ = try ProjectStore.create(name: "other", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        try addScreen("Inbox", ["Sources/Inbox/**"], project: "other")
        #expect(try addItem("First", needs: [], project: "other").number == 1)
        // A later scan without some findings and with one new one: the new one takes 23, the others keep theirs.
        let before = Dictionary(
            uniqueKeysWithValues: try FindingStore.list(project: "app", query: FindingQuery(), on: connection)
                .map { ($0.id, $0.number) })
        var report = try DuoScanParser.parse(try Fixtures.bytes("duo_scan/all-rules.json"))
        report.findings.removeLast(3)
        report.findings.append(
            ScanFinding(rule: "DUO001", severity: "high", file: "Sources/New.swift", line: 3, snippet: "UIScreen.main"))
        _ = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: String(repeating: "b", count: 64), format: .duoScan, project: "app", actor: "ci"
            ), scan: report, on: connection)
        let after = try FindingStore.list(project: "app", query: FindingQuery(), on: connection)
        #expect(after.count == 23)
        for finding in after where before[finding.id] != nil { #expect(finding.number == before[finding.id]) }
        #expect(after.first { before[$0.id] == nil }?.number == 23)
    }

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
        #expect(message.hasPrefix("unknown SDK symbol 'axisBehaviour' (did you mean 'axisBehavior'?); for a symbol"))
        #expect(try snapshot() == before)

        let item = try addItem(
            "Keep the filter chip horizontal", needs: ["axisBehaviour"], sdkForUnknown: SDKVersion(27, 1))
        #expect(item.status == .blocked && item.reason == "needs the iOS 27.1 SDK (axisBehaviour)")
        #expect(try stored(item.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehaviour)"])
        #expect(
            try rows("SELECT symbol, sdk FROM project_symbols") == [["axisBehaviour", "27.1"]])
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
}
