import BarkeepAPI
import BarkeepCore

/// `/projects/{p}/findings?<filter language>`: the findings the filters choose (a link is a saved view), a page at
/// a time with a "next" link; for writers the bulk verdict (`form#bulk`, FINDING SET `where=yes` with the same
/// filters) whose dry run fills `#bulk-preview`.
public enum FindingsPage {
    /// How many findings a page shows (FINDINGS `limit=`).
    public static let pageSize = 500

    /// The page of FINDINGS' `findings` chosen by `filters`; `next` the number to continue after, nil on the last
    /// page.
    public static func render(
        _ findings: [FindingRecord], filters: FindingFilters, next: Int?, context: PageContext
    ) -> String {
        let project = context.project ?? ""
        var content: [HTML] = [filterForm(filters, project: project)]
        if context.canWrite { content.append(bulkForm(filters, context: context)) }
        content.append(
            findings.isEmpty
                ? PageParts.paragraph("No finding matches these filters.")
                : FindingsTable.render(findings, project: project, caption: "Findings (\(findings.count) shown)"))
        if let next {
            content.append(
                .element(
                    "p", [.class("next")],
                    [
                        .element(
                            "a", [.href(PageRoutes.findings(project, filters: filters, after: next))], text: "Next page"
                        )
                    ]))
        }
        return PageLayout.render(title: "Findings", context: context, content: content)
    }

    private static func filterForm(_ filters: FindingFilters, project: String) -> HTML {
        let values = Dictionary(filters.keywords.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let inputs = FindingFilters.fields.map { field -> HTML in
            var attributes = [
                HTMLAttribute("type", "text"), HTMLAttribute("name", field.key),
                HTMLAttribute("id", "filter-" + field.key), HTMLAttribute("value", values[field.key] ?? ""),
            ]
            attributes.append(HTMLAttribute("title", field.summary))
            return PageParts.labelled(field.key, .element("input", attributes))
        }
        return .element(
            "form",
            [
                .class("filters"), HTMLAttribute("method", "get"), .action(PageRoutes.findings(project)),
                HTMLAttribute("aria-label", "Filters"),
            ],
            inputs + [.element("button", [HTMLAttribute("type", "submit")], text: "Show")])
    }

    /// The hidden fields that repeat the filters in a write form: `where=yes` and each filter's wire key.
    static func hiddenFilters(_ filters: FindingFilters) -> [HTML] {
        [hidden("where", "yes")] + filters.keywords.map { hidden($0.key, $0.value) }
    }

    /// `<input type=hidden name value>`.
    static func hidden(_ name: String, _ value: String) -> HTML {
        .element(
            "input", [HTMLAttribute("type", "hidden"), HTMLAttribute("name", name), HTMLAttribute("value", value)])
    }

    private static func bulkForm(_ filters: FindingFilters, context: PageContext) -> HTML {
        let project = context.project ?? ""
        let statuses = FindingLifecycle.personStatuses.map { status in
            HTML.element("option", [HTMLAttribute("value", status.rawValue)], text: status.rawValue)
        }
        return .element(
            "section", [HTMLAttribute("aria-labelledby", "bulk-title")],
            [
                .element("h2", [HTMLAttribute("id", "bulk-title")], text: "Set the status of every finding shown"),
                .element(
                    "form",
                    [
                        .id("bulk"), .class("filters"), HTMLAttribute("method", "post"),
                        .action(PageRoutes.findingsStatus(project)),
                    ],
                    [PageLayout.csrfField(context)] + hiddenFilters(filters) + [
                        PageParts.labelled(
                            "New status",
                            .element(
                                "select", [HTMLAttribute("name", "new-status"), HTMLAttribute("id", "bulk-status")],
                                statuses)),
                        PageParts.labelled(
                            "Reason",
                            .element(
                                "input",
                                [
                                    HTMLAttribute("type", "text"), HTMLAttribute("name", "reason"),
                                    HTMLAttribute("id", "bulk-reason"),
                                ])),
                        .element(
                            "button",
                            [
                                HTMLAttribute("type", "submit"), HTMLAttribute("name", "dry-run"),
                                HTMLAttribute("value", "yes"),
                            ],
                            text: "Preview"),
                    ]),
                .element(
                    "div",
                    [
                        HTMLAttribute("id", "bulk-preview"), HTMLAttribute("role", "region"),
                        HTMLAttribute("aria-live", "polite"), HTMLAttribute("aria-label", "Preview of the change"),
                    ], []),
            ])
    }
}
