import Foundation

/// The readiness report: what a team hands over when it says the app is ready for iPhone Duo, or how far it is.
///
/// Both formats hold the same sections in the same order: a header (toolchain, last scan, app lifecycle, when it
/// was generated), a summary, one section per readiness tier with a recommendation per screen (the items that need
/// work), the verified, kept, declined and false-positive findings each in a section of its own, and the poses not
/// verified. Fixed findings are left out. Output depends only on the input and `now`.
public enum ReadinessReport {
    /// The report as CommonMark (with GFM tables), ending with a line feed.
    public static func markdown(_ input: ReportInput, now: Date) -> String {
        let content = ReportContent(input, now: now)
        var blocks: [String] = ["# " + Escaping.markdown(content.title), list(content.header)]
        blocks.append("## Summary")
        blocks.append(list(content.summary))
        blocks.append(
            table(
                ["Step", "What it asks", "Screens done"],
                content.stepRows.map { row in
                    [
                        "\(row.step.number) " + Escaping.codeSpan(row.step.key, inTable: true),
                        Escaping.markdown(row.step.summary),
                        row.done.map { done in "\(done) of \(row.applicable ?? 0)" } ?? "unknown",
                    ]
                }))
        for tier in content.tiers {
            blocks.append("## " + Escaping.markdown(tier.title))
            if tier.recommendations.isEmpty { blocks.append("Nothing in this tier.") }
            for recommendation in tier.recommendations {
                blocks.append("### " + Escaping.markdown(recommendation.screen))
                blocks.append(Escaping.markdown(ReadinessReport.guidance(recommendation)))
                blocks.append(
                    table(
                        ["Item", "Finding", "Code or title", "SDK", "Status"],
                        recommendation.items.map { item in
                            [
                                item.id, inline(item.finding), inline(item.what), Escaping.markdown(item.sdk),
                                Escaping.markdown(item.status),
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
                    ["Item", "Screen", "Finding", "Code or title", "Reason"],
                    section.items.map { item in
                        [
                            item.id, Escaping.markdown(item.screen), inline(item.finding), inline(item.what),
                            Escaping.markdown(item.reason ?? "—"),
                        ]
                    }))
        }
        blocks.append("## " + ReportContent.notVerifiedTitle)
        if content.notVerified.isEmpty {
            blocks.append("Every required pose has a result.")
        } else {
            blocks.append(
                table(
                    ["Screen", "Pose", "Result", "Reason"],
                    content.notVerified.map { gap in
                        [
                            Escaping.markdown(gap.screen), Escaping.markdown(gap.pose), Escaping.markdown(gap.result),
                            Escaping.markdown(gap.reason ?? "—"),
                        ]
                    }))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    // MARK: - Shared wording

    /// The sentence under a recommendation's heading: owner and the steps that apply, or what to do with unmapped
    /// findings.
    static func guidance(_ recommendation: ReportContent.Recommendation) -> String {
        if recommendation.isUnmapped {
            return "No screen owns these findings: add their files to a screen's paths so a recommendation covers"
                + " them."
        }
        let owner = recommendation.owner.map { "Owner: \($0). " } ?? ""
        let steps =
            recommendation.steps.isEmpty
            ? "none"
            : recommendation.steps.map { $0.step.name + ($0.isDone ? " (done)" : "") }.joined(separator: ", ")
        return owner + "Steps that apply: \(steps)."
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
