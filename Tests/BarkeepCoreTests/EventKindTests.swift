import BarkeepCore
import Foundation
import Testing

@Suite("Event kinds and filters")
struct EventKindTests {
    @Test("every kind is NOUN.VERB in lower case, stored as the events table's check allows, and named once")
    func rawValues() {
        let names = EventKind.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.wholeMatch(of: /[a-z]+\.[a-z]+/) != nil, "\(name)")
        }
        #expect(EventKind.allNames.split(separator: ",").count == names.count)
    }

    @Test("the kinds the filters branch appends are known already")
    func assignmentKinds() {
        #expect(EventKind(rawValue: "finding.assigned") == .findingAssigned)
        #expect(EventKind(rawValue: "finding.comment") == .findingComment)
    }

    @Test("a screen's own kinds are those whose subject starts with its key")
    func screenKinds() {
        #expect(
            EventKind.screenKinds == [
                .screenAdded, .screenUpdated, .screenRemoved, .screenUses, .stepState, .poseRecorded,
            ])
    }

    @Test(
        "a list of kinds parses in order without repeats, and reports every word that names no kind",
        arguments: [
            ("finding.status", [EventKind.findingStatus], [String]()),
            ("finding.new,finding.status,finding.new", [.findingNew, .findingStatus], []),
            ("finding.status,finding.bogus", [.findingStatus], ["finding.bogus"]),
            ("finding.status,", [.findingStatus], [""]),
            ("", [], [""]),
            ("Finding.Status", [], ["Finding.Status"]),
            ("finding.*", [], ["finding.*"]),
        ]
    )
    func parsing(text: String, kinds: [EventKind], unknown: [String]) {
        let parsed = EventKind.list(parsing: text)
        #expect(parsed.kinds == kinds)
        #expect(parsed.unknown == unknown)
    }

    /// An event's fields, as the filter sees them.
    struct Fields: Sendable, CustomStringConvertible {
        var kind: String
        var screen: String?
        var screens: [String]
        var finding: Int?
        var description: String { "\(kind) \(screen ?? "-") \(screens) \(finding.map(String.init) ?? "-")" }
    }

    static let statusOnInbox = Fields(kind: "finding.status", screen: "Inbox", screens: ["Inbox"], finding: 7)
    static let componentFinding = Fields(
        kind: "finding.status", screen: "MenuRow", screens: ["Inbox", "Settings"], finding: 9)
    static let unmapped = Fields(kind: "finding.new", screen: "unmapped", screens: [], finding: 12)
    static let stepOfInbox = Fields(kind: "step.state", screen: "Inbox", screens: ["Inbox"], finding: nil)
    static let projectUpdate = Fields(kind: "project.updated", screen: nil, screens: [], finding: nil)
    static let futureKind = Fields(kind: "finding.snoozed", screen: "Inbox", screens: ["Inbox"], finding: 7)

    @Test(
        "a filter passes an event only when every part it sets matches",
        arguments: [
            (EventFilter(), statusOnInbox, true),
            (EventFilter(), futureKind, true),
            (EventFilter(kinds: [.findingStatus]), statusOnInbox, true),
            (EventFilter(kinds: [.findingStatus]), unmapped, false),
            (EventFilter(kinds: [.findingStatus]), futureKind, false),
            (EventFilter(kinds: [.findingNew, .findingStatus]), unmapped, true),
            (EventFilter(screen: "Inbox"), statusOnInbox, true),
            (EventFilter(screen: "Inbox"), stepOfInbox, true),
            (EventFilter(screen: "Inbox"), componentFinding, true),
            (EventFilter(screen: "Settings"), componentFinding, true),
            (EventFilter(screen: "MenuRow"), componentFinding, true),
            (EventFilter(screen: "Settings"), statusOnInbox, false),
            (EventFilter(screen: "Inbox"), projectUpdate, false),
            (EventFilter(screen: "unmapped"), unmapped, true),
            (EventFilter(screen: "inbox"), statusOnInbox, false),
            (EventFilter(finding: 7), statusOnInbox, true),
            (EventFilter(finding: 7), componentFinding, false),
            (EventFilter(finding: 7), stepOfInbox, false),
            (EventFilter(kinds: [.findingStatus], screen: "Settings", finding: 9), componentFinding, true),
            (EventFilter(kinds: [.findingStatus], screen: "Settings", finding: 7), componentFinding, false),
            (EventFilter(kinds: [.findingNew], screen: "Settings", finding: 9), componentFinding, false),
        ]
    )
    func filtering(filter: EventFilter, event: Fields, passes: Bool) {
        #expect(
            filter.matches(kind: event.kind, screen: event.screen, screens: event.screens, finding: event.finding)
                == passes)
        #expect(filter.isEmpty == (filter == EventFilter()))
    }

    @Test("docs/protocol.md lists exactly the kinds of this release")
    func documented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let start = try #require(text.range(of: "- Event kinds of this release:"))
        let end = try #require(text.range(of: "\n\n", range: start.upperBound..<text.endIndex))
        let listed = Set(
            text[start.upperBound..<end.lowerBound].matches(of: /`([a-z]+\.[a-z]+)`/).map { String($0.output.1) })
        #expect(listed == Set(EventKind.allCases.map(\.rawValue)))
    }
}
