import BarkeepAPI
import BarkeepCore
import Foundation

/// A piece of report text: prose, or code shown literally. Renderers escape each for their format.
enum Inline: Sendable, Equatable {
    /// Prose.
    case text(String)
    /// Code (a finding reference, a snippet, a commit).
    case code(String)
    /// A checklist step's key (`title-and-symbol`), shown as code that is never broken across lines.
    case stepKey(String)
}

/// What the readiness report says, decided once and rendered as Markdown or HTML, so both formats always hold
/// the same facts in the same order. Text is kept unescaped here.
struct ReportContent: Sendable {
    /// A `label: value` line.
    struct Fact: Sendable {
        /// The label.
        var label: String
        /// The value.
        var value: [Inline]
    }

    /// A row of the checklist table of the summary.
    struct StepRow: Sendable {
        /// The step.
        var step: ChecklistStep
        /// Screens where it is done; nil when no screen's steps are known.
        var done: Int?
        /// Screens where it applies; nil when no screen's steps are known.
        var applicable: Int?
    }

    /// A row of the tier table of the summary.
    struct TierRow: Sendable {
        /// 0 to 3.
        var tier: Int
        /// What the tier covers: `blockers`.
        var name: String
        /// Findings needing work in the tier, each counted once.
        var findings: Int
    }

    /// One finding or item, in a recommendation or a settled section.
    struct Item: Sendable {
        /// `F-1`.
        var id: String
        /// Its number in the project.
        var number: Int
        /// Its readiness tier.
        var tier: Int
        /// The key of the screen, component or area that owns it, or `unmapped`.
        var screen: String
        /// The component it belongs to, when it is listed under a screen using that component (or as unmapped).
        var component: String?
        /// The scanner's reference as code, or what kind of manual item it is.
        var finding: Inline
        /// The snippet as code, or the title.
        var what: Inline
        /// The SDK standing.
        var sdk: String
        /// The status as people read it.
        var status: String
        /// Why it is kept, declined or a false positive.
        var reason: String?

        /// The id, followed by the component it comes from: `F-11 (Row)`.
        var label: String { id + (component.map { " (\($0))" } ?? "") }
    }

    /// What is left of a screen (or of the app area, or of the unmapped bucket) before it is ready: what its section
    /// or its line opens with. Empty for a screen that is done.
    struct Verdict: Sendable {
        /// Findings to fix of one checklist step (nil: of none).
        struct StepCount: Sendable, Equatable {
            /// The step.
            var step: ChecklistStep?
            /// How many.
            var count: Int
            /// For the findings of no step, their rules (`manual` for an item), sorted: what they are about.
            var rules: [String] = []
        }

        /// Items blocked until the team builds with one SDK (nil: no known SDK brings what they need).
        struct BlockedGroup: Sendable, Equatable {
            /// The SDK.
            var sdk: SDKVersion?
            /// How many items.
            var count: Int
            /// The symbols they wait for, sorted.
            var symbols: [String]
        }

        /// The checklist steps not done yet.
        enum StepsToDo: Sendable, Equatable {
            /// None (or the screen has no checklist: the app area, the unmapped bucket).
            case none
            /// Every step that applies, this many.
            case all(Int)
            /// These steps, by number.
            case some([ChecklistStep])
            /// This many, which ones unknown (the report has the status's counts only).
            case count(Int)
        }

        /// Findings needing work that are not blocked, by step number, findings of no step last.
        var toFix: [StepCount] = []
        /// Blocked items by SDK, oldest SDK first, no SDK last.
        var blocked: [BlockedGroup] = []
        /// Required poses whose latest result is failed, in pose order.
        var failedPoses: [String] = []
        /// Required poses without a result, or last not run.
        var posesNotVerified: [String] = []
        /// The checklist steps still to do.
        var stepsToDo: StepsToDo = .none
        /// Verified findings of it that a later scan still reports, by number: not work by status, but a warning.
        var stillReported: [Item] = []

        /// Whether nothing is left, warnings included.
        var isEmpty: Bool {
            toFix.isEmpty && blocked.isEmpty && failedPoses.isEmpty && posesNotVerified.isEmpty
                && stepsToDo == .none && stillReported.isEmpty
        }
    }

    /// A screen that needs no section of its own: done (the "Ready" list), or with nothing to fix (poses to verify,
    /// steps to check): one line each.
    struct ScreenLine: Sendable {
        /// The key.
        var screen: String
        /// The owner.
        var owner: String?
        /// What is left.
        var verdict: Verdict
    }

    /// What a recommendation is about.
    enum Place: Sendable {
        /// A screen (or a key the status does not know, which is treated as one).
        case screen
        /// The app area.
        case area
        /// The findings no screen owns or uses.
        case unmapped
    }

    /// A required pose whose latest result is failed.
    struct FailedPose: Sendable {
        /// The pose.
        var pose: String
        /// The screenshot the tester recorded.
        var screenshot: String?
        /// The finding or item it maps to, `F-12 (proposed)`.
        var finding: String?
    }

    /// One recommendation: a screen (or the app area, or the unmapped bucket) and everything it still needs.
    struct Recommendation: Sendable {
        /// The key, or `unmapped`.
        var screen: String
        /// What it is about.
        var place: Place
        /// The owner.
        var owner: String?
        /// What is left: the first thing its section says.
        var verdict: Verdict
        /// For a screen, the components it uses; for `unmapped`, the components no screen uses that have findings.
        var components: [String]
        /// Its findings needing work, its own and its components', by tier then number.
        var items: [Item]
        /// Its failed poses, in pose order.
        var failedPoses: [FailedPose]
    }

    /// The findings that need no more work, by status: one section each, in this order.
    struct SettledSection: Sendable {
        /// The status the section lists.
        var status: FindingStatus
        /// Its title.
        var title: String
        /// The HTML anchor.
        var anchor: String
        /// What it says when it lists nothing.
        var emptyText: String
        /// The findings, by number.
        var items: [Item]
    }

    /// The required poses without a passed, failed or not-applicable result.
    enum NotVerified: Sendable, Equatable {
        /// Every required pose has a result.
        case nothing
        /// No screen has any result yet: one line for all of them.
        case noResultYet(screens: Int)
        /// One line per screen with gaps; screens without any result share the last line.
        case lines([String])
    }

    /// `Readiness report — app`.
    var title: String
    /// Toolchain, last scan, app lifecycle, generated.
    var header: [Fact]
    /// The part, screens, findings, blocked items, poses, checklist, burndown.
    var summary: [Fact]
    /// Findings needing work per tier.
    var tierRows: [TierRow]
    /// The checklist, step by step.
    var stepRows: [StepRow]
    /// The screens done, which need no recommendation, by key: the "Ready" list.
    var ready: [ScreenLine]
    /// The screens with nothing to fix that are not done yet (poses to verify, steps to check), by key.
    var toVerify: [ScreenLine]
    /// One per screen with findings to fix, blocked items or failed poses, by key, then the app area, then
    /// `unmapped`.
    var recommendations: [Recommendation]
    /// Findings marked verified that a scan after their verification still reports, by number: the warning list,
    /// left out of the Verified section.
    var stillReported: [Item]
    /// Verified, kept, declined and false positives, each in its own section.
    var settled: [SettledSection]
    /// Poses not run or without a result.
    var notVerified: NotVerified
    /// The screens (with the app area) the report covers, in the status's order: the rows of the pose matrix.
    var screens: [ScreenStatusRecord]
    /// Their pose cells.
    var poses: [PoseResultRecord]

    /// What the tiers cover, by tier.
    static let tierNames = ["blockers", "correctness on the inner display", "bars", "richer adoption"]

    /// The settled sections: status, title, anchor and what each says when empty.
    static let settledSections: [(status: FindingStatus, title: String, anchor: String, empty: String)] = [
        (.verified, "Verified", "verified", "Nothing is verified yet."),
        (.kept, "Kept as is", "kept", "Nothing is kept as is."),
        (.declined, "Declined", "declined", "Nothing is declined."),
        (.falsePositive, "False positives", "false-positives", "No finding is marked a false positive."),
    ]
    /// The title of the recommendations section.
    static let recommendationsTitle = "Recommendations"
    /// The title of the list of screens with nothing to fix that are not done.
    static let toVerifyTitle = "To verify"
    /// The title of the list of screens that are done.
    static let readyTitle = "Ready"
    /// The title of the warning list of verified findings a later scan still reports.
    static let stillReportedTitle = "Verified but still reported"
    /// The HTML anchor of that list.
    static let stillReportedAnchor = "still-reported"
    /// The title of the unverified poses section.
    static let notVerifiedTitle = "Not verified"

    // MARK: - Deciding the content

    /// Decides what the report of `selection` says.
    init(_ input: ReportInput, selection: ReportSelection = .wholeProject, now: Date) {
        let status = input.status
        let project = status.project
        let scope = ReportScope(input, selection: selection)
        title = "Readiness report — \(project.name)"
        header = Self.header(status, now: now)
        summary = Self.summary(input, scope: scope, selection: selection)
        // Counted in place: a copy of each finding per figure costs more than the rest of a large report.
        tierRows = Self.tierNames.enumerated().map { tier, name in
            TierRow(
                tier: tier, name: name,
                findings: scope.findings.count { $0.status.needsWork && $0.reportTier == tier })
        }
        stepRows = Self.stepRows(
            scope.isWholeProject ? input.steps : input.steps.filter { scope.keys.contains($0.key) })
        (ready, toVerify, recommendations) = Self.recommendations(input, scope: scope)
        let isStillReported = { (finding: ReportFinding) in
            finding.status == .verified && finding.stillReportedRun != nil
        }
        stillReported = scope.findings.filter(isStillReported).map { Self.item($0, component: nil, project: project) }
        let stillReportedCount = stillReported.count
        settled = Self.settledSections.map { section in
            // Verified findings that are all still reported are listed above, not "nothing".
            let empty =
                section.status == .verified && stillReportedCount > 0
                ? "No other finding is verified: the \(Self.plural(stillReportedCount, "verified finding")) above"
                    + " \(stillReportedCount == 1 ? "is" : "are") still reported."
                : section.empty
            return SettledSection(
                status: section.status, title: section.title, anchor: section.anchor, emptyText: empty,
                items: scope.findings.compactMap {
                    $0.status == section.status && !isStillReported($0)
                        ? Self.item($0, component: nil, project: project) : nil
                })
        }
        notVerified = Self.notVerified(input, scope: scope)
        screens = scope.screens
        poses = scope.poses
    }

    private static func header(_ status: ProjectStatusReply, now: Date) -> [Fact] {
        let project = status.project
        var header = [
            Fact(
                label: "Toolchain",
                value: [.text("iOS SDK \(project.sdk), deployment target iOS \(project.deploymentTarget)")])
        ]
        if let scan = status.scan {
            var value: [Inline] = [.text([scan.tool, scan.toolVersion].compactMap { $0 }.joined(separator: " "))]
            value.append(.text(", run \(scan.run)"))
            if let commit = scan.commit { value += [.text(", commit "), .code(commit)] }
            if let files = scan.filesScanned { value.append(.text(", \(files) files scanned")) }
            value.append(.text(", \(ReportTime.minute(scan.ingested))"))
            header.append(Fact(label: "Last scan", value: value))
        } else {
            header.append(Fact(label: "Last scan", value: [.text("none yet")]))
        }
        header.append(Fact(label: "App lifecycle", value: [.text(status.scan?.lifecycle ?? "unknown")]))
        header.append(Fact(label: "Generated", value: [.text(ReportTime.minute(now))]))
        return header
    }

    /// The summary's figures, all of the scope (the burndown excepted: it is always the whole project's).
    private static func summary(_ input: ReportInput, scope: ReportScope, selection: ReportSelection) -> [Fact] {
        let project = input.status.project
        let screens = scope.screens.filter { $0.kind == .screen }
        var facts: [Fact] = []
        if !selection.isWholeProject {
            let total = input.status.screens.filter { $0.kind == .screen }.count
            var value = selection.description
            value.append(.text(", \(screens.count) of the project's \(plural(total, "screen"))"))
            if scope.screens.contains(where: { $0.kind == .area }) { value.append(.text(" and the app area")) }
            value.append(.text("; the figures below count only these"))
            facts.append(Fact(label: "Part", value: value))
        }
        let open = SeverityCounts(
            Severity.allCases.map { severity in
                scope.findings.count { $0.status.needsWork && $0.severity == severity }
            })
        let needsWork = open.total == 0 ? "none" : "\(open.total) (\(open.text))"
        let stillReported = scope.findings.filter { $0.status == .verified && $0.stillReportedRun != nil }
        let failed = scope.screens.map { failedPoses(of: $0.key, input: input, scope: scope).count }
        let failedCount = failed.reduce(0, +)
        let failedScreens = failed.filter { $0 > 0 }.count
        facts += [
            Fact(label: "Screens done", value: [.text("\(screens.filter(\.isDone).count) of \(screens.count)")]),
            Fact(label: "Findings needing work", value: [.text(needsWork)]),
        ]
        if !stillReported.isEmpty {
            facts.append(
                Fact(
                    label: stillReportedTitle,
                    value: [
                        .text(
                            "\(stillReported.count) (\(stillReported.map(\.itemID).joined(separator: ", "))): "
                                + (stillReported.count == 1
                                    ? "a scan after its verification still reports it"
                                    : "scans after their verification still report them"))
                    ]))
        }
        facts += [
            Fact(label: "Blocked items", value: [.text(blockedText(scope.findings, project: project))]),
            Fact(
                label: "Pose coverage",
                value: [
                    .text(
                        ratio(
                            scope.screens.map(\.posesPassed).reduce(0, +),
                            scope.screens.map(\.posesRequired).reduce(0, +), "required poses \(PoseResult.settledWord)")
                    )
                ]),
            Fact(
                label: "Failed poses",
                value: [
                    .text(failedCount == 0 ? "none" : "\(failedCount) on \(plural(failedScreens, "screen"))")
                ]),
            Fact(
                label: "Checklist completion",
                value: [
                    .text(
                        ratio(
                            scope.screens.map(\.stepsDone).reduce(0, +),
                            scope.screens.map(\.stepsApplicable).reduce(0, +), "applicable steps done"))
                ]),
        ]
        let burndown = input.burndown
        if let first = burndown.first, let last = burndown.last {
            let text =
                burndown.count == 1
                ? "needs work \(last.needsWork), blocked \(last.blocked) (\(last.label))"
                : "needs work \(first.needsWork) → \(last.needsWork), blocked \(first.blocked) → \(last.blocked)"
                    + " (\(first.label) to \(last.label))"
            let label = selection.isWholeProject ? "Burndown" : "Burndown of the whole project"
            facts.append(Fact(label: label, value: [.text(text)]))
        }
        return facts
    }

    /// `2 on the iOS 27.1 SDK, 1 with no SDK yet`: the blocked items by the SDK their reason names, oldest SDK first.
    private static func blockedText(_ findings: [ReportFinding], project: ProjectInfo) -> String {
        var bySDK: [SDKVersion: Int] = [:]
        var withoutSDK = 0
        for finding in findings where finding.status == .blocked {
            if case .blocked(let version?) = finding.sdkStanding(in: project) {
                bySDK[version, default: 0] += 1
            } else {
                withoutSDK += 1
            }
        }
        var parts = bySDK.keys.sorted().map { "\(bySDK[$0] ?? 0) on the iOS \($0) SDK" }
        if withoutSDK > 0 { parts.append("\(withoutSDK) with no SDK yet") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    private static func ratio(_ part: Int, _ whole: Int, _ noun: String) -> String {
        "\(part) of \(whole) \(noun)" + (TerminalLayout.percent(part, of: whole).map { " (\($0))" } ?? "")
    }

    /// `1 screen`, `3 screens`.
    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)" + (count == 1 ? "" : "s") }

    private static func stepRows(_ steps: [String: [StepRecord]]) -> [StepRow] {
        let lines = steps.values.flatMap { $0 }
        return ChecklistStep.all.map { step in
            guard !steps.isEmpty else { return StepRow(step: step, done: nil, applicable: nil) }
            let ofStep = lines.filter { $0.step == step.number }
            return StepRow(
                step: step, done: ofStep.filter { $0.state == .done }.count,
                applicable: ofStep.filter { $0.state != .notApplicable }.count)
        }
    }

    /// How the report names a finding's status: `verified, still reported in run 7` for a verified finding a later
    /// scan still reports, else as `statusText(_:)` of its status.
    static func statusText(_ finding: ReportFinding) -> String {
        guard finding.status == .verified, let run = finding.stillReportedRun else { return statusText(finding.status) }
        return FindingLifecycle.verifiedStillReported(inRun: String(run))
    }

    /// How the report names a status: `verified (done)`, `false positive`, else the status itself.
    static func statusText(_ status: FindingStatus) -> String {
        switch status {
        case .verified: "verified (done)"
        case .falsePositive: "false positive"
        default: status.rawValue
        }
    }
}
