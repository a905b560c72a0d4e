import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
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
                screen: "Inbox", pose: "P3", result: .failed, screenshot: "p3.png", finding: 999_999),
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
                NewPoseResult(
                    screen: "Inbox", pose: "P3", result: .failed, screenshot: "p3.png", finding: try number(foreign.id))
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
        let itemNumber = try #require(result.finding)
        let itemID = try #require(
            try connection.queryValue("SELECT id FROM findings WHERE number = $1", [itemNumber], as: Int64.self))
        let item = try show(itemID)
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
        #expect(notRun.result == .notRun && notRun.reason == "device only" && notRun.finding == nil)
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
        #expect(history.map(\.finding) == [nil, failure.finding, nil])
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
}
