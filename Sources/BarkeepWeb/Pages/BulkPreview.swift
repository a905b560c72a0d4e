import BarkeepAPI
import BarkeepCore

/// The preview of a bulk verdict: FINDING SET's dry-run reply (the rows `--dry-run` lists: would change,
/// unchanged, refused) and a Confirm form that posts the same change for real, to the same findings (`selection`). The script puts it in
/// `#bulk-preview` (`fragment`); without the script it is a page of its own (`render`).
public enum BulkPreview {
    /// The preview as a fragment for `#bulk-preview` (answer to `X-Barkeep-Part: preview`).
    public static func fragment(
        _ reply: BulkChangeReply, newStatus: String, reason: String?, selection: BulkSelection, context: PageContext
    ) -> String {
        content(reply, newStatus: newStatus, reason: reason, selection: selection, context: context).markup
    }

    /// The preview as a page of its own.
    public static func render(
        _ reply: BulkChangeReply, newStatus: String, reason: String?, selection: BulkSelection, context: PageContext
    ) -> String {
        PageLayout.render(
            title: "Preview: set \(newStatus)", context: context,
            content: [content(reply, newStatus: newStatus, reason: reason, selection: selection, context: context)])
    }

    /// The summary, the rows of the dry run and the Confirm form.
    static func content(
        _ reply: BulkChangeReply, newStatus: String, reason: String?, selection: BulkSelection, context: PageContext
    ) -> HTML {
        let project = context.project ?? ""
        let summary =
            reply.summary
            ?? BulkChangeSummary(
                changed: reply.rows.filter { $0.change != "unchanged" && $0.change != "refused" }.count,
                unchanged: reply.rows.filter { $0.change == "unchanged" }.count,
                refused: reply.rows.filter { $0.change == "refused" }.count, isDryRun: true)
        let rows = reply.rows.map { row -> HTML in
            .element(
                "tr",
                [HTMLAttribute("data-finding", String(row.finding.id)), HTMLAttribute("data-change", row.change)],
                [
                    .element(
                        "th", [HTMLAttribute("scope", "row")],
                        [
                            .element(
                                "a", [.href(PageRoutes.finding(project, row.finding.id))], text: "#\(row.finding.id)")
                        ]),
                    PageParts.cell(row.finding.rule ?? row.finding.title ?? row.finding.source),
                    PageParts.cell(row.change),
                    PageParts.cell((row.from ?? "—") + " → " + (row.to ?? "—")),
                    PageParts.cell(row.refusal),
                ])
        }
        var confirmFields: [HTML] = [PageLayout.csrfField(context), FindingsPage.hidden("new-status", newStatus)]
        if let reason { confirmFields.append(FindingsPage.hidden("reason", reason)) }
        confirmFields += FindingsPage.hiddenSelection(selection)
        confirmFields.append(
            .element(
                "button", [HTMLAttribute("type", "submit"), .class("primary")],
                text: "Confirm: set \(summary.changed) to \(newStatus)"))
        return .group([
            PageParts.paragraph(
                "\(summary.changed) would change, \(summary.unchanged) unchanged, \(summary.refused) refused."),
            PageParts.table(
                id: "bulk-rows", caption: "What the change would do",
                headers: [
                    .init(title: "Finding", key: "id"), .init(title: "Rule", key: "rule"),
                    .init(title: "Change", key: "change"), .init(title: "From → to", key: "from"),
                    .init(title: "Refusal", key: "refusal"),
                ],
                rows: rows),
            .element(
                "form",
                [
                    .id("bulk-confirm"), HTMLAttribute("method", "post"), .action(PageRoutes.findingsStatus(project)),
                ],
                confirmFields),
        ])
    }
}
