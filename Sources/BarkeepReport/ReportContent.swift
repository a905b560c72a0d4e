import BarkeepCore
import Foundation

/// A piece of report text: prose, or code shown literally. Renderers escape each for their format.
enum Inline: Sendable, Equatable {
    /// Prose.
    case text(String)
    /// Code (a finding reference, a snippet, a commit).
    case code(String)
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
        var step: Checklist.Step
        /// Screens where it is done; nil when no screen's steps are known.
        var done: Int?
        /// Screens where it applies; nil when no screen's steps are known.
        var applicable: Int?
    }

    /// One item of a recommendation, or of the kept list.
    struct Item: Sendable {
        /// `F-1`.
        var id: String
        /// The screen key.
        var screen: String
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
    }

    /// A step named in a recommendation.
    struct StepMention: Sendable {
        /// The step.
        var step: Checklist.Step
        /// Whether it is done already.
        var isDone: Bool
    }

    /// One recommendation: a screen and its items of one tier.
    struct Recommendation: Sendable {
        /// The screen key, or `unmapped`.
        var screen: String
        /// Whether this is the unmapped bucket.
        var isUnmapped: Bool
        /// The screen's owner.
        var owner: String?
        /// The steps that apply to the screen.
        var steps: [StepMention]
        /// Its items of the tier, by number.
        var items: [Item]
    }

    /// A tier section.
    struct Tier: Sendable {
        /// `Tier 0 — blockers`.
        var title: String
        /// One per screen, by key, `unmapped` last.
        var recommendations: [Recommendation]
    }

    /// A pose not verified.
    struct PoseGap: Sendable {
        /// The screen key.
        var screen: String
        /// The pose.
        var pose: String
        /// `not run`, `no result`.
        var result: String
        /// Why it was not run.
        var reason: String?
    }

    /// `Readiness report — app`.
    var title: String
    /// Toolchain, last scan, app lifecycle, generated.
    var header: [Fact]
    /// Screens, findings, blocked items, poses, checklist, burndown.
    var summary: [Fact]
    /// The checklist, step by step.
    var stepRows: [StepRow]
    /// Tiers 0 to 3.
    var tiers: [Tier]
    /// Verified, kept, declined and false positives, each in its own section.
    var settled: [SettledSection]
    /// Poses not run or without a result.
    var notVerified: [PoseGap]

    /// The section titles of the four tiers, by tier.
    static let tierTitles = [
        "Tier 0 — blockers", "Tier 1 — correctness on the inner display", "Tier 2 — bars",
        "Tier 3 — richer adoption",
    ]

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

    /// The settled sections: status, title, anchor and what each says when empty.
    static let settledSections: [(status: FindingStatus, title: String, anchor: String, empty: String)] = [
        (.verified, "Verified", "verified", "Nothing is verified yet."),
        (.kept, "Kept as is", "kept", "Nothing is kept as is."),
        (.declined, "Declined", "declined", "Nothing is declined."),
        (.falsePositive, "False positives", "false-positives", "No finding is marked a false positive."),
    ]
    /// The title of the unverified poses section.
    static let notVerifiedTitle = "Not verified"

    // MARK: - Deciding the content

    /// Decides what the report says.
    init(_ input: ReportInput, now: Date) {
        let status = input.status
        let project = status.project
        title = "Readiness report — \(project.name)"

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
        self.header = header

        summary = Self.summary(status, burndown: input.burndown)
        stepRows = Self.stepRows(input.steps)
        let screensByKey = Dictionary(status.screens.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = input.findings.sorted { $0.number < $1.number }
        tiers = Self.tierTitles.enumerated().map { tier, title in
            let items = ordered.filter { $0.reportTier == tier && $0.status.needsWork }
            return Tier(
                title: title,
                recommendations: Self.recommendations(items, project: project, screens: screensByKey, input: input))
        }
        settled = Self.settledSections.map { section in
            SettledSection(
                status: section.status, title: section.title, anchor: section.anchor, emptyText: section.empty,
                items: ordered.filter { $0.status == section.status }.map { Self.item($0, project: project) })
        }
        notVerified = Self.poseGaps(input)
    }

    private static func summary(_ status: ProjectStatus, burndown: [BurndownPoint]) -> [Fact] {
        let totals = status.totals
        let bySeverity = status.needsWorkBySeverity
        let severities = Severity.allCases.filter { bySeverity[$0] > 0 }.map { "\(bySeverity[$0]) \($0.rawValue)" }
        let needsWork =
            totals.needsWork == 0
            ? "none" : "\(totals.needsWork)" + (severities.isEmpty ? "" : " (\(severities.joined(separator: ", ")))")
        let blocked = status.blocked.map { group in
            group.sdk.map { "\(group.items) on the iOS \($0) SDK" } ?? "\(group.items) with no SDK yet"
        }
        var facts = [
            Fact(label: "Screens done", value: [.text("\(totals.screensDone) of \(totals.screens)")]),
            Fact(label: "Findings needing work", value: [.text(needsWork)]),
            Fact(label: "Blocked items", value: [.text(blocked.isEmpty ? "none" : blocked.joined(separator: ", "))]),
            Fact(
                label: "Pose coverage",
                value: [.text(ratio(totals.posesPassed, totals.posesRequired, "required poses passed"))]),
            Fact(
                label: "Checklist completion",
                value: [.text(ratio(totals.stepsDone, totals.stepsApplicable, "applicable steps done"))]),
        ]
        if let first = burndown.first, let last = burndown.last {
            let text =
                burndown.count == 1
                ? "needs work \(last.needsWork), blocked \(last.blocked) (\(last.label))"
                : "needs work \(first.needsWork) → \(last.needsWork), blocked \(first.blocked) → \(last.blocked)"
                    + " (\(first.label) to \(last.label))"
            facts.append(Fact(label: "Burndown", value: [.text(text)]))
        }
        return facts
    }

    private static func ratio(_ part: Int, _ whole: Int, _ noun: String) -> String {
        "\(part) of \(whole) \(noun)" + (TerminalLayout.percent(part, of: whole).map { " (\($0))" } ?? "")
    }

    private static func stepRows(_ steps: [String: [StepLine]]) -> [StepRow] {
        let lines = steps.values.flatMap { $0 }
        return Checklist.steps.map { step in
            guard !steps.isEmpty else { return StepRow(step: step, done: nil, applicable: nil) }
            let ofStep = lines.filter { $0.step == step.number }
            return StepRow(
                step: step, done: ofStep.filter { $0.state == .done }.count,
                applicable: ofStep.filter { $0.state != .notApplicable }.count)
        }
    }

    private static func recommendations(
        _ findings: [ReportFinding], project: ProjectInfo, screens: [String: ScreenStatus], input: ReportInput
    ) -> [Recommendation] {
        let byScreen = Dictionary(grouping: findings, by: \.screen)
        let keys = byScreen.keys.sorted { left, right in
            let (leftUnmapped, rightUnmapped) = (
                left == ReportFinding.unmappedScreen, right == ReportFinding.unmappedScreen
            )
            return leftUnmapped != rightUnmapped ? rightUnmapped : left < right
        }
        return keys.map { key in
            let isUnmapped = key == ReportFinding.unmappedScreen
            var mentions: [StepMention] = []
            if !isUnmapped {
                if let lines = input.steps[key] {
                    mentions = lines.sorted { $0.step < $1.step }.filter { $0.state != .notApplicable }.compactMap {
                        line in
                        Checklist.step(line.step).map { StepMention(step: $0, isDone: line.state == .done) }
                    }
                } else {
                    mentions = Checklist.steps.map { StepMention(step: $0, isDone: false) }
                }
            }
            return Recommendation(
                screen: key, isUnmapped: isUnmapped, owner: screens[key]?.owner, steps: mentions,
                items: (byScreen[key] ?? []).map { item($0, project: project) })
        }
    }

    private static func item(_ finding: ReportFinding, project: ProjectInfo) -> Item {
        let reference: Inline
        let what: Inline
        if let scanner = finding.scannerReference {
            reference = .code(scanner)
            if let snippet = finding.snippet, !snippet.allSatisfy(\.isWhitespace) {
                what = .code(snippet)
            } else {
                what = .text(finding.title ?? "—")
            }
        } else {
            reference = .text(finding.step.flatMap(Checklist.step).map { "manual, step \($0.name)" } ?? "manual")
            what = .text(finding.title ?? "—")
        }
        return Item(
            id: finding.itemID, screen: finding.screen, finding: reference, what: what,
            sdk: finding.sdkStanding(in: project).description, status: statusText(finding.status),
            reason: finding.reason)
    }

    /// How the report names a status: `verified (done)`, `false positive`, else the status itself.
    static func statusText(_ status: FindingStatus) -> String {
        switch status {
        case .verified: "verified (done)"
        case .falsePositive: "false positive"
        default: status.rawValue
        }
    }

    private static func poseGaps(_ input: ReportInput) -> [PoseGap] {
        let required = input.status.project.requiredPoses
        func poseOrder(_ pose: String) -> (Int, String) { (required.firstIndex(of: pose) ?? required.count, pose) }
        var gaps: [PoseGap] = []
        for cell in input.poses {
            switch cell.result {
            case .notRun:
                gaps.append(PoseGap(screen: cell.screen, pose: cell.pose, result: "not run", reason: cell.reason))
            case .noResult where required.contains(cell.pose):
                gaps.append(PoseGap(screen: cell.screen, pose: cell.pose, result: "no result", reason: nil))
            default:
                continue
            }
        }
        // A screen the matrix does not cover still has the status's count of poses missing.
        let covered = Set(input.poses.map(\.screen))
        for screen in input.status.screens where !covered.contains(screen.key) {
            gaps += screen.missingPoses.map {
                PoseGap(screen: screen.key, pose: $0, result: "no result or not run", reason: nil)
            }
        }
        return gaps.sorted { ($0.screen, poseOrder($0.pose).0, $0.pose) < ($1.screen, poseOrder($1.pose).0, $1.pose) }
    }
}
