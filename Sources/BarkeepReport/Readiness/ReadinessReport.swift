import BarkeepCore
import Foundation

/// The readiness report: what a team hands over when it says the app is ready for iPhone Duo, or how far it is.
///
/// Both formats hold the same sections in the same order: a header (toolchain, last scan, app lifecycle, when it
/// was generated), a summary (with the findings needing work per tier), the verified findings a later scan still
/// reports (a warning list, when there are any), one recommendation per screen with work (opening with its verdict:
/// the findings to fix by checklist step, the items blocked and on what, the failed poses, the poses not verified,
/// the checklist steps to do; then every finding needing work of the screen and of the components it uses, by tier
/// then number, and the failed poses with their screenshots), a line per screen with nothing to fix that is not
/// done yet (its verdict), a line per screen that is ready, the verified, kept, declined and false-positive findings
/// each in a section of its own, and the poses not verified, a line per screen. Fixed findings are left out. Output
/// depends only on the input, the selection and `now`.
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
                        Escaping.markdown(row.step.asks), stepCount(row),
                    ]
                }))
        if !content.stillReported.isEmpty {
            blocks.append("## " + ReportContent.stillReportedTitle)
            blocks.append(Escaping.markdown(stillReportedIntroduction))
            blocks.append(
                table(
                    stillReportedHeaders,
                    content.stillReported.map { item in
                        [
                            item.id, Escaping.markdown(item.screen), inline(item.finding), inline(item.what),
                            Escaping.markdown(item.status),
                        ]
                    }))
        }
        blocks.append("## " + ReportContent.recommendationsTitle)
        blocks.append(Escaping.markdown(overview(content)))
        for recommendation in content.recommendations {
            blocks.append("### " + Escaping.markdown(recommendation.screen))
            blocks.append("**Left:** " + verdict(recommendation.verdict).map(inlineProse).joined())
            let guidance = guidance(recommendation)
            if !guidance.isEmpty { blocks.append(Escaping.markdown(guidance)) }
            if !recommendation.items.isEmpty {
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
        for (title, lines) in [
            (ReportContent.toVerifyTitle, content.toVerify), (ReportContent.readyTitle, content.ready),
        ]
        where !lines.isEmpty {
            blocks.append("### " + title)
            blocks.append(lines.map { "- " + screenLine($0).map(inlineProse).joined() }.joined(separator: "\n"))
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
    /// The columns of the verified findings a later scan still reports.
    static let stillReportedHeaders = ["Item", "Screen", "Finding", "Code or title", "Status"]
    /// What stands before the failed poses of a recommendation.
    static let failedPosesIntroduction = "Failed poses:"
    /// What stands before the verified findings a later scan still reports.
    static let stillReportedIntroduction =
        "These findings are marked verified, but a scan after their verification still reports them: their fix did"
        + " not reach the code the scanner read, or the verdict was given too soon. Look at each again; set it to"
        + " applied to rework it, or keep it or mark it a false positive with a reason."

    /// The sentence the recommendations open with: how many screens have work left, how many have nothing to fix but
    /// are not verified yet, how many are ready (`2 screens have work left, 21 have nothing to fix but are not
    /// verified yet and 4 are ready.`); and whether the app area or findings no screen owns need work too.
    static func overview(_ content: ReportContent) -> String {
        func verb(_ count: Int, _ one: String, _ several: String) -> String { count == 1 ? one : several }
        let work = content.recommendations.filter { $0.place == .screen }.count
        var parts = [
            work == 0
                ? "No screen has anything to fix"
                : ReportContent.plural(work, "screen") + " " + verb(work, "has", "have") + " work left"
        ]
        let toVerify = content.toVerify.count
        if toVerify > 0 {
            parts.append(
                "\(toVerify) \(verb(toVerify, "has", "have")) nothing to fix but \(verb(toVerify, "is", "are")) not"
                    + " verified yet")
        }
        let ready = content.ready.count
        if ready > 0 { parts.append("\(ready) \(verb(ready, "is", "are")) ready") }
        var text = QuantityText.conjunction(parts) + "."
        let others = content.recommendations.filter { $0.place != .screen }.map { recommendation in
            recommendation.place == .area ? "the app area" : "findings no screen owns"
        }
        if !others.isEmpty { text += " Work is left in " + QuantityText.conjunction(others) + " too." }
        return text
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

    /// The sentences after a recommendation's verdict: the owner and the components whose findings it lists; or
    /// what the app area is; or what to do with unmapped findings. Empty when there is nothing to say.
    static func guidance(_ recommendation: ReportContent.Recommendation) -> String {
        let components = recommendation.components.joined(separator: ", ")
        let several = recommendation.components.count > 1
        let owner = recommendation.owner.map { "Owner: \($0)." }
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
            return [owner, "\(AuditArea.appTitle): no checklist step applies."].compactMap { $0 }.joined(separator: " ")
        case .screen:
            var parts = [owner].compactMap { $0 }
            if !recommendation.components.isEmpty {
                parts.append(
                    "Uses \(components) (\(several ? "components" : "a component")): \(several ? "their" : "its")"
                        + " findings are marked with the component and listed under every screen using it.")
            }
            return parts.joined(separator: " ")
        }
    }

    /// What is left, as one sentence ending with a full stop: `3 findings to fix: 2 in step 3 title-and-symbol, 1
    /// of no checklist step (DUO008); 1 item blocked on the iOS 27.1 SDK (axisBehavior); pose P3 failed; poses P2,
    /// P11 not verified; checklist steps 1 container, 5 axis to do; F-7 verified, still reported in run 12.` (step
    /// keys and symbols as code); `Ready.` when nothing is.
    static func verdict(_ verdict: ReportContent.Verdict) -> [Inline] {
        var parts: [[Inline]] = []
        let toFix = verdict.toFix.reduce(0) { $0 + $1.count }
        if toFix > 0 {
            func group(_ count: ReportContent.Verdict.StepCount, isOnly: Bool) -> [Inline] {
                let number = isOnly ? "" : "\(count.count) "
                guard let step = count.step else {
                    return [.text(number + "of no checklist step (" + count.rules.joined(separator: ", ") + ")")]
                }
                return [.text(number + "in step \(step.number) "), .stepKey(step.key)]
            }
            var part: [Inline] = [.text(ReportContent.plural(toFix, "finding") + " to fix")]
            if verdict.toFix.count == 1, let only = verdict.toFix.first {
                part += [.text(" ")] + group(only, isOnly: true)
            } else {
                part.append(.text(": "))
                part += joined(verdict.toFix.map { group($0, isOnly: false) }, separator: ", ")
            }
            parts.append(part)
        }
        for group in verdict.blocked {
            var part: [Inline] = [
                .text(
                    ReportContent.plural(group.count, "item") + " blocked "
                        + (group.sdk.map { "on the iOS \($0) SDK" } ?? "with no SDK yet"))
            ]
            if !group.symbols.isEmpty {
                part.append(.text(" ("))
                part += joined(group.symbols.map { [.code($0)] }, separator: ", ")
                part.append(.text(")"))
            }
            parts.append(part)
        }
        if !verdict.failedPoses.isEmpty {
            parts.append([.text(poses(verdict.failedPoses) + " failed")])
        }
        if !verdict.posesNotVerified.isEmpty {
            parts.append([.text(poses(verdict.posesNotVerified) + " not verified")])
        }
        switch verdict.stepsToDo {
        case .none: break
        case .all(let count):
            parts.append([.text(count == 1 ? "its checklist step to do" : "all \(count) checklist steps to do")])
        case .count(let count): parts.append([.text(ReportContent.plural(count, "checklist step") + " to do")])
        case .some(let steps):
            var part: [Inline] = [.text(steps.count == 1 ? "checklist step " : "checklist steps ")]
            part += joined(steps.map { [.text("\($0.number) "), .stepKey($0.key)] }, separator: ", ")
            part.append(.text(" to do"))
            parts.append(part)
        }
        for item in verdict.stillReported {
            parts.append([.text("\(item.label) \(item.status)")])
        }
        guard !parts.isEmpty else { return [.text("Ready.")] }
        return joined(parts, separator: "; ") + [.text(".")]
    }

    /// A line of the "To verify" or "Ready" list: `Compose (owner ana): poses P1, P2 not verified; all 12 checklist
    /// steps to do.`, `Settings (owner bo)`.
    static func screenLine(_ line: ReportContent.ScreenLine) -> [Inline] {
        let name: Inline = .text(line.screen + (line.owner.map { " (owner \($0))" } ?? ""))
        guard !line.verdict.isEmpty else { return [name] }
        return [name, .text(": ")] + verdict(line.verdict)
    }

    /// `pose P3`, `poses P2, P11`.
    private static func poses(_ poses: [String]) -> String {
        (poses.count == 1 ? "pose " : "poses ") + poses.joined(separator: ", ")
    }

    /// The pieces of `parts` with `separator` between them.
    private static func joined(_ parts: [[Inline]], separator: String) -> [Inline] {
        var result: [Inline] = []
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(.text(separator)) }
            result += part
        }
        return result
    }

    // MARK: - Markdown building blocks

    private static func list(_ facts: [ReportContent.Fact]) -> String {
        facts.map { "- \(Escaping.markdown($0.label)): \($0.value.map(inlineProse).joined())" }.joined(separator: "\n")
    }

    private static func inlineProse(_ piece: Inline) -> String {
        switch piece {
        case .text(let text): Escaping.markdown(text)
        case .code(let code), .stepKey(let code): Escaping.codeSpan(code, inTable: false)
        }
    }

    private static func inline(_ piece: Inline) -> String {
        switch piece {
        case .text(let text): Escaping.markdown(text)
        case .code(let code), .stepKey(let code): Escaping.codeSpan(code, inTable: true)
        }
    }

    private static func table(_ headers: [String], _ rows: [[String]]) -> String {
        let lines =
            ["| " + headers.joined(separator: " | ") + " |", "|" + headers.map { _ in " --- |" }.joined()]
            + rows.map { "| " + $0.joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n")
    }
}
