import BarkeepAPI
import BarkeepCore
import BarkeepHashing
import BarkeepReport
import BarkeepWeb
import Foundation

/// Typed replies of a small project as the daemon sends them, with a hostile snippet in every text a scan or a
/// person controls, and helpers that read rendered pages.
enum WebFixtures {
    /// The snippet of the must-show: it must show as text and never become an element.
    static let hostile = "<img src=x onerror=alert(1)>"
    /// A bidirectional override a scan could carry.
    static let override = "\u{202E}txt.exe"
    /// The session's CSRF token.
    static let csrf = String(repeating: "ab", count: 32)
    /// The assets, named by libcrypto's SHA-256.
    static let assets = StaticAssets(hasher: LibcryptoHasher())

    static func context(role: Role = .writer, url: PageURL, part: PageContext.Part = .document) -> PageContext {
        PageContext(
            signedInName: "dana" + hostile, role: role, csrfToken: csrf, project: "Demo App", url: url, assets: assets,
            part: part)
    }

    static func finding(_ id: Int, screen: String, status: FindingStatus = .proposed) -> FindingRecord {
        var finding = FindingRecord()
        finding.id = id
        finding.project = "Demo App"
        finding.source = "scanner"
        finding.rule = "DUO00\(id)"
        finding.severity = id == 1 ? "critical" : "medium"
        finding.file = "Sources/Inbox/Inbox\(hostile).swift"
        finding.line = 12
        finding.snippet = hostile
        finding.message = "Uses UIScreen.main " + hostile
        finding.status = status
        finding.screen = screen
        finding.assignee = "lee" + hostile
        finding.reason = hostile
        return finding
    }

    static func event(_ seq: Int, finding: Int?) -> EventFields {
        var event = EventFields()
        event.seq = seq
        event.project = "Demo App"
        event.kind = "finding.status"
        event.subject = "Inbox.swift:12"
        event.from = "proposed"
        event.to = "approved"
        event.reason = hostile
        event.actor = "dana"
        event.at = "2026-12-04T16:05:07.123456Z"
        event.finding = finding
        return event
    }

    static func pose(_ pose: Pose, screen: String, result: PoseResult?, screenshot: String? = nil) -> PoseResultRecord {
        var record = PoseResultRecord()
        record.screen = screen
        record.pose = pose
        record.result = PoseCellResult(result)
        record.screenshot = screenshot
        if result != nil {
            record.actor = "sam"
            record.recorded = "2026-12-03T09:30:00Z"
            record.device = "iPhone Duo " + hostile
            record.reason = result == .failed ? hostile : nil
            record.finding = result == .failed ? ProjectNumber(1) : nil
        }
        return record
    }

    static let screenshotHash = String(repeating: "0f", count: 32)

    static func status() throws -> ProjectStatusReply {
        var parts = StatusParts()
        parts.project.name = "Demo App"
        parts.project.sdk = "26.0"
        parts.project.deploymentTarget = "17.0"
        parts.project.requiredPoses = ["P1", "P3"]
        parts.totals.needsWork = 3
        parts.totals.needsWorkBySeverity = [1, 0, 2, 0, 0]
        parts.totals.screens = 2
        parts.totals.screensDone = 1
        parts.totals.posesRequired = 4
        parts.totals.posesPassed = 2
        var inbox = StatusScreenPart()
        inbox.key = "inbox"
        inbox.title = "Inbox " + hostile
        inbox.owner = "lee" + hostile
        inbox.work.needsWork[0] = 1
        inbox.work.needsWork[2] = 2
        inbox.stepsDone = 3
        inbox.stepsApplicable = 10
        inbox.posesPassed = 1
        inbox.posesRequired = 2
        inbox.failedPoses = ["P3"]
        var settings = StatusScreenPart()
        settings.key = "settings"
        settings.owner = "kim"
        settings.isDone = true
        settings.posesPassed = 2
        settings.posesRequired = 2
        parts.screens = [inbox, settings]
        var blocked = StatusBlockedPart()
        blocked.sdk = "27.0"
        blocked.items = 1
        parts.blocked = [blocked]
        return try ProjectStatusReply(parts)
    }

    static func blocked() -> [BlockedRecord] {
        var item = finding(3, screen: "inbox", status: .blocked)
        item.source = "manual"
        item.rule = nil
        item.title = "Adopt the hinge API " + hostile
        return [BlockedRecord(sdk: "27.0", symbol: "UIHingeState" + hostile, finding: item)]
    }

    static func screenDetail() -> ScreenDetail {
        var screen = ScreenRecord()
        screen.key = "inbox"
        screen.title = "Inbox " + hostile
        screen.owner = "lee" + hostile
        screen.uses = ["row" + hostile]
        screen.isDone = false
        var step = StepRecord()
        step.screen = "inbox"
        step.step = 1
        step.key = "container"
        step.state = .todo
        step.blockers = ["1", "2"]
        var done = StepRecord()
        done.screen = "inbox"
        done.step = 2
        done.key = "safe-area"
        done.state = .done
        done.recorded = .done
        var why = ScreenReasonRecord()
        why.topic = "findings"
        why.text = "2 findings need work " + hostile
        return ScreenDetail(
            screen: screen, steps: [step, done],
            poses: [
                pose(.p1, screen: "inbox", result: .passed),
                pose(.p3, screen: "inbox", result: .failed, screenshot: "sha256:" + screenshotHash),
            ],
            findings: [finding(1, screen: "inbox"), finding(2, screen: "row")],
            history: [event(7, finding: 1)], why: [why])
    }

    static func bulkReply() -> BulkChangeReply {
        var changed = FindingChangeRecord()
        changed.finding = finding(1, screen: "inbox")
        changed.change = "would-change"
        changed.from = "proposed"
        changed.to = "approved"
        var refused = FindingChangeRecord()
        refused.finding = finding(2, screen: "row")
        refused.change = "refused"
        refused.refusal = hostile
        return BulkChangeReply(
            [changed, refused], summary: BulkChangeSummary(changed: 1, unchanged: 0, refused: 1, isDryRun: true))
    }

    static func projects() -> [ProjectRecord] {
        var project = ProjectRecord()
        project.name = "Demo App"
        project.sdk = "26.0"
        project.deploymentTarget = "17.0"
        project.requiredPoses = ["P1", "P3"]
        project.created = "2026-12-01T08:00:00Z"
        var hostileProject = project
        hostileProject.name = hostile
        return [project, hostileProject]
    }

    /// Every page, rendered for a writer (name, markup).
    static func pages(role: Role = .writer) throws -> [(name: String, html: String)] {
        let project = "Demo App"
        return [
            ("projects", ProjectListPage.render(projects(), context: context(role: role, url: PageRoutes.projects))),
            (
                "overview",
                OverviewPage.render(
                    status: try status(), blocked: blocked(),
                    burndown: [
                        BurndownPoint(
                            label: "run 1" + hostile, at: Date(timeIntervalSince1970: 0), needsWork: 9, blocked: 1),
                        BurndownPoint(
                            label: "run 2", at: Date(timeIntervalSince1970: 86_400), needsWork: 3, blocked: 1),
                    ],
                    context: context(role: role, url: PageRoutes.project(project)))
            ),
            (
                "screen",
                ScreenPage.render(
                    screenDetail(), blocked: blocked(),
                    context: context(role: role, url: PageRoutes.screen(project, "inbox")))
            ),
            (
                "findings",
                FindingsPage.render(
                    [finding(1, screen: "inbox"), finding(2, screen: "row")],
                    filters: FindingFilters(keywords: [("severity", "critical,medium"), ("owner", hostile)]), next: 2,
                    context: context(role: role, url: PageRoutes.findings(project)))
            ),
            (
                "finding",
                FindingPage.render(
                    finding(1, screen: "inbox"), history: [event(7, finding: 1)],
                    context: context(role: role, url: PageRoutes.finding(project, 1)))
            ),
            (
                "poses",
                PoseMatrixPage.render(
                    screenDetail().poses + [pose(.p1, screen: "settings", result: .notApplicable)], screens: [],
                    context: context(role: role, url: PageRoutes.poses(project)))
            ),
            (
                "preview",
                BulkPreview.render(
                    bulkReply(), newStatus: "approved", reason: hostile, selection: .filters(FindingFilters()),
                    context: context(role: role, url: PageRoutes.findingsStatus(project)))
            ),
            ("signin", SignInPage.render(next: "/projects/x?" + hostile, isFailure: true, assets: assets)),
        ]
    }

    /// The text between each `<form` and its `</form>`.
    static func forms(_ html: String) -> [String] {
        var result: [String] = []
        var rest = Substring(html)
        while let start = rest.range(of: "<form"), let end = rest[start.lowerBound...].range(of: "</form>") {
            result.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return result
    }

    /// How many times `needle` occurs in `html`.
    static func count(_ needle: String, in html: String) -> Int {
        html.components(separatedBy: needle).count - 1
    }
}
