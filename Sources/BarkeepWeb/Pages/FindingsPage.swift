import BarkeepAPI
import BarkeepCore

/// `/projects/{p}/findings?<filter language>`: the findings the filters choose (a link is a saved view), a page at
/// a time by number (`FindingPage.defaultLimit`, FINDINGS `limit=`/`after=`) with "Next page" and "First page"
/// links that keep the filters; for writers the bulk verdict (`form#bulk`) whose dry run fills `#bulk-preview`. The
/// bulk form acts on what the page shows, never more: the filters (FINDING SET `where=yes`) when the page holds every
/// finding they choose, the numbers listed (FINDING SET `12,15,…`) when it is one page of several.
public enum FindingsPage {
    /// The page of FINDINGS' `findings` chosen by `filters`, the findings numbered after `after` (nil: the first
    /// page); `next` the number to continue after, nil on the last page.
    public static func render(
        _ findings: [FindingRecord], filters: FindingFilters, after: Int? = nil, next: Int?, context: PageContext
    ) -> String {
        let project = context.project ?? ""
        let isPart = after != nil || next != nil
        var content: [HTML] = [filterForm(filters, project: project)]
        if context.canWrite, !findings.isEmpty {
            let selection: BulkSelection = isPart ? .numbers(findings.map(\.id)) : .filters(filters)
            content.append(bulkForm(selection, shown: findings.count, context: context))
        }
        let caption =
            isPart
            ? "Findings (\(findings.count) shown, by number\(findings.first.map { " from #\($0.id)" } ?? ""))"
            : "Findings (\(findings.count) shown)"
        content.append(
            findings.isEmpty
                ? PageParts.paragraph(
                    "No finding matches these filters" + (after == nil ? "." : " after #\(after ?? 0)."))
                : FindingsTable.render(findings, project: project, caption: caption))
        var links: [HTML] = []
        if after != nil {
            links.append(.element("a", [.href(PageRoutes.findings(project, filters: filters))], text: "First page"))
        }
        if let next {
            links.append(
                .element(
                    "a",
                    [.href(PageRoutes.findings(project, filters: filters, after: next)), HTMLAttribute("rel", "next")],
                    text: "Next page"))
        }
        if !links.isEmpty {
            content.append(
                .element("nav", [.class("next"), HTMLAttribute("aria-label", "Pages of findings")], links))
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

    /// The hidden fields that name a bulk write's findings: `where=yes` and each filter's wire key, or the numbers.
    static func hiddenSelection(_ selection: BulkSelection) -> [HTML] {
        switch selection {
        case .filters(let filters):
            [hidden("where", "yes")] + filters.keywords.map { hidden($0.key, $0.value) }
        case .numbers(let numbers):
            [hidden("number", numbers.map(String.init).joined(separator: ","))]
        }
    }

    /// `<input type=hidden name value>`.
    static func hidden(_ name: String, _ value: String) -> HTML {
        .element(
            "input", [HTMLAttribute("type", "hidden"), HTMLAttribute("name", name), HTMLAttribute("value", value)])
    }

    private static func bulkForm(_ selection: BulkSelection, shown: Int, context: PageContext) -> HTML {
        let project = context.project ?? ""
        let statuses = FindingLifecycle.personStatuses.map { status in
            HTML.element("option", [HTMLAttribute("value", status.rawValue)], text: status.rawValue)
        }
        return .element(
            "section", [HTMLAttribute("aria-labelledby", "bulk-title")],
            [
                .element(
                    "h2", [HTMLAttribute("id", "bulk-title")],
                    text: "Set the status of every finding shown (\(shown))"),
                .element(
                    "form",
                    [
                        .id("bulk"), .class("filters"), HTMLAttribute("method", "post"),
                        .action(PageRoutes.findingsStatus(project)),
                    ],
                    [PageLayout.csrfField(context)] + hiddenSelection(selection) + [
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
