import BarkeepCore
import Foundation

/// The readiness report: what a team hands over when it says the app is ready for iPhone Duo, or how far it is.
///
/// Both formats hold the same sections in the same order: a header (toolchain, last scan, app lifecycle, when it
/// was generated), a summary (with the findings needing work per tier), one recommendation per screen (the steps
/// that apply, every finding needing work of the screen and of the components it uses, by tier then number, and the
/// failed poses with their screenshots), the verified, kept, declined and false-positive findings each in a section
/// of its own, and the poses not verified, a line per screen. Fixed findings are left out. Output depends only on the
/// input, the selection and `now`.
public enum ReadinessReport {
    /// The report of `selection` (the whole project by default) as CommonMark (with GFM tables), ending with a line
    /// feed.
    public static func markdown(_ input: ReportInput, selection: ReportSelection = .wholeProject, now: Date) -> String {
        let content = ReportContent(input, selection: selection, now: now)
        var blocks: [String] = ["# " + Escaping.markdown(content.title), list(content.header)]
        blocks.append("## Summary")
        blocks.append(list(content.summary))
        blocks.append(
            table(
                ["Tier", "What it covers", "Findings needing work"],
                content.tierRows.map { ["\($0.tier)", Escaping.markdown($0.name), "\($0.findings)"] }))
        blocks.append(
            table(
                ["Step", "What it asks", "Screens done"],
                content.stepRows.map { row in
                    [
                        "\(row.step.number) " + Escaping.codeSpan(row.step.key, inTable: true),
                        Escaping.markdown(row.step.summary), stepCount(row),
                    ]
                }))
        blocks.append("## " + ReportContent.recommendationsTitle)
        if let line = doneLine(content) { blocks.append(Escaping.markdown(line)) }
        if content.recommendations.isEmpty { blocks.append(nothingToRecommend) }
        for recommendation in content.recommendations {
            blocks.append("### " + Escaping.markdown(recommendation.screen))
            blocks.append(Escaping.markdown(guidance(recommendation)))
            if recommendation.items.isEmpty {
                blocks.append(nothingInTheCode)
            } else {
                blocks.append(
                    table(
                        itemHeaders,
                        recommendation.items.map { item in
                            [
                                Escaping.markdown(item.label), "\(item.tier)", inline(item.finding), inline(item.what),
                                Escaping.markdown(item.sdk), Escaping.markdown(item.status),
                            ]
                        }))
            }
            if !recommendation.failedPoses.isEmpty {
                blocks.append(failedPosesIntroduction)
                blocks.append(
                    table(
                        failedPoseHeaders,
                        recommendation.failedPoses.map { failed in
                            [
                                Escaping.markdown(failed.pose),
                                failed.screenshot.map { Escaping.codeSpan($0, inTable: true) } ?? "—",
                                Escaping.markdown(failed.finding ?? "—"),
                            ]
                        }))
            }
        }
        for section in content.settled {
            blocks.append("## " + section.title)
            guard !section.items.isEmpty else {
                blocks.append(section.emptyText)
                continue
            }
            blocks.append(
                table(
                    settledHeaders,
                    section.items.map { item in
                        [
                            item.id, Escaping.markdown(item.screen), inline(item.finding), inline(item.what),
                            Escaping.markdown(item.reason ?? "—"),
                        ]
                    }))
        }
        blocks.append("## " + ReportContent.notVerifiedTitle)
        switch notVerifiedText(content.notVerified) {
        case .paragraph(let text): blocks.append(Escaping.markdown(text))
        case .lines(let lines): blocks.append(lines.map { "- " + Escaping.markdown($0) }.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    // MARK: - Shared wording

    /// The columns of a recommendation's findings.
    static let itemHeaders = ["Item", "Tier", "Finding", "Code or title", "SDK", "Status"]
    /// The columns of a recommendation's failed poses.
    static let failedPoseHeaders = ["Pose", "Screenshot", "Finding"]
    /// The columns of a settled section.
    static let settledHeaders = ["Item", "Screen", "Finding", "Code or title", "Reason"]
    /// What stands before the failed poses of a recommendation.
    static let failedPosesIntroduction = "Failed poses:"
    /// A recommendation without findings needing work.
    static let nothingInTheCode = "No finding needs work."
    /// The recommendations section when no screen needs one.
    static let nothingToRecommend = "No screen needs work."

    /// `Done: Settings, Sidebar.`: the screens that need no recommendation; nil when there are none.
    static func doneLine(_ content: ReportContent) -> String? {
        content.doneScreens.isEmpty ? nil : "Done: " + content.doneScreens.joined(separator: ", ") + "."
    }

    /// A checklist row's count: `3 of 4`, or `unknown` without steps.
    static func stepCount(_ row: ReportContent.StepRow) -> String {
        row.done.map { done in "\(done) of \(row.applicable ?? 0)" } ?? "unknown"
    }

    /// What the not-verified section says: one paragraph, or a list of lines.
    enum NotVerifiedText {
        /// One sentence.
        case paragraph(String)
        /// A line per screen.
        case lines([String])
    }

    /// The words of the not-verified section.
    static func notVerifiedText(_ notVerified: ReportContent.NotVerified) -> NotVerifiedText {
        switch notVerified {
        case .nothing: .paragraph("Every required pose has a result.")
        case .noResultYet(let screens):
            .paragraph("No pose has a result yet on \(ReportContent.plural(screens, "screen")).")
        case .lines(let lines): .lines(lines)
        }
    }

    /// The sentence under a recommendation's heading: the owner, the steps that apply and the components whose
    /// findings it lists; or what the app area is; or what to do with unmapped findings.
    static func guidance(_ recommendation: ReportContent.Recommendation) -> String {
        let components = recommendation.components.joined(separator: ", ")
        let several = recommendation.components.count > 1
        switch recommendation.place {
        case .unmapped:
            var text =
                "No screen owns these findings: add their files to a screen's paths so a recommendation covers them."
            if !recommendation.components.isEmpty {
                text +=
                    " Those marked with a component come from \(components), which no screen uses: say which screens"
                    + " use \(several ? "them" : "it") (barkeep screen uses)."
            }
            return text
        case .area:
            let owner = recommendation.owner.map { "Owner: \($0). " } ?? ""
            return owner + "\(AuditArea.appTitle): no checklist step applies."
        case .screen:
            let owner = recommendation.owner.map { "Owner: \($0). " } ?? ""
            let steps =
                recommendation.steps.isEmpty
                ? "none"
                : recommendation.steps.map { $0.step.name + ($0.isDone ? " (done)" : "") }.joined(separator: ", ")
            var text = owner + "Steps that apply: \(steps)."
            if !recommendation.components.isEmpty {
                text +=
                    " Uses \(components) (\(several ? "components" : "a component")): \(several ? "their" : "its")"
                    + " findings are marked with the component and listed under every screen using it."
            }
            return text
        }
    }

    // MARK: - Markdown building blocks

    private static func list(_ facts: [ReportContent.Fact]) -> String {
        facts.map { "- \(Escaping.markdown($0.label)): \($0.value.map(inlineProse).joined())" }.joined(separator: "\n")
    }

    private static func inlineProse(_ piece: Inline) -> String {
        switch piece {
        case .text(let text): Escaping.markdown(text)
        case .code(let code): Escaping.codeSpan(code, inTable: false)
        }
    }

    private static func inline(_ piece: Inline) -> String {
        switch piece {
        case .text(let text): Escaping.markdown(text)
        case .code(let code): Escaping.codeSpan(code, inTable: true)
        }
    }

    private static func table(_ headers: [String], _ rows: [[String]]) -> String {
        let lines =
            ["| " + headers.joined(separator: " | ") + " |", "|" + headers.map { _ in " --- |" }.joined()]
            + rows.map { "| " + $0.joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n")
    }
}
