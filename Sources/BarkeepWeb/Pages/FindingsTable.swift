import BarkeepAPI
import BarkeepCore

/// The table of findings the findings page and a screen's page show: `table#findings tr[data-finding=N]` with a
/// `td.status`; rule, severity, where (the title on its own line under the location), snippet (as text, always),
/// status, assignee, screen.
enum FindingsTable {
    /// The table of `findings` of `project`.
    static func render(_ findings: [FindingRecord], project: String, caption: String) -> HTML {
        let rows = findings.map { finding -> HTML in
            let location = [finding.file, finding.line.map(String.init)].compactMap { $0 }.joined(separator: ":")
            var what: [HTML] = []
            if let title = finding.title { what.append(.element("span", [.class("what")], text: title)) }
            if let message = finding.message { what.append(.element("span", [.class("meta")], text: message)) }
            if let snippet = finding.snippet {
                what.append(.element("pre", [.class("snippet")], [.element("code", text: snippet)]))
            }
            return .element(
                "tr",
                [
                    HTMLAttribute("data-finding", String(finding.id)), HTMLAttribute("data-severity", finding.severity),
                    HTMLAttribute("data-status", finding.status.rawValue),
                ],
                [
                    .element(
                        "th", [HTMLAttribute("scope", "row"), HTMLAttribute("data-sort", String(finding.id))],
                        [.element("a", [.href(PageRoutes.finding(project, finding.id))], text: "#\(finding.id)")]),
                    PageParts.cell(finding.rule ?? finding.source),
                    .element(
                        "td", [HTMLAttribute("data-sort", String(severityRank(finding.severity)))],
                        [PageParts.severity(finding.severity)]),
                    .element("td", [], [.element("code", text: location.isEmpty ? "—" : location)] + what),
                    .element("td", [.class("status")], [PageParts.status(finding.status)]),
                    PageParts.cell(finding.assignee ?? "none"),
                    .element(
                        "td", [],
                        finding.screen.isEmpty
                            ? [.text("—")]
                            : [.element("a", [.href(PageRoutes.screen(project, finding.screen))], text: finding.screen)]
                    ),
                ])
        }
        return PageParts.table(
            id: "findings", caption: caption,
            headers: [
                .init(title: "Finding", key: "id", isNumeric: false), .init(title: "Rule", key: "rule"),
                .init(title: "Severity", key: "severity"), .init(title: "Where and what", key: "file"),
                .init(title: "Status", key: "status"), .init(title: "Assignee", key: "assignee"),
                .init(title: "Screen", key: "screen"),
            ],
            rows: rows, sortable: true)
    }

    /// Most severe first when sorted ascending.
    static func severityRank(_ word: String) -> Int {
        Severity(rawValue: word).flatMap { Severity.allCases.firstIndex(of: $0) } ?? Severity.allCases.count
    }
}
