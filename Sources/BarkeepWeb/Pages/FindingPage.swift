import BarkeepAPI
import BarkeepCore

/// `/projects/{p}/findings/{n}`: one finding (FINDING SHOW) with its history, and for writers a status form and a
/// comment form.
public enum FindingPage {
    /// The page of `finding` and its `history`.
    public static func render(_ finding: FindingRecord, history: [EventFields], context: PageContext) -> String {
        let project = context.project ?? ""
        var facts: [HTML] = []
        func fact(_ term: String, _ value: HTML) { facts += [.element("dt", text: term), .element("dd", [], [value])] }
        fact("Status", .element("span", [.class("status")], [PageParts.status(finding.status)]))
        if let reason = finding.reason { fact("Reason", .text(reason)) }
        fact("Severity", PageParts.severity(finding.severity))
        fact("Source", .text(finding.source))
        if let rule = finding.rule { fact("Rule", .element("code", text: rule)) }
        if let title = finding.title { fact("Title", .text(title)) }
        if let message = finding.message { fact("Message", .text(message)) }
        if let file = finding.file {
            fact("Where", .element("code", text: file + (finding.line.map { ":\($0)" } ?? "")))
        }
        fact(
            "Screen",
            finding.screen.isEmpty
                ? .text("—") : .element("a", [.href(PageRoutes.screen(project, finding.screen))], text: finding.screen))
        fact("Assignee", .text(finding.assignee ?? "none"))
        if let needs = finding.needs, !needs.isEmpty {
            fact("Needs", .element("code", text: needs.joined(separator: ", ")))
        }
        if let first = finding.firstSeenRun { fact("First seen", .text("run \(first)")) }
        if let last = finding.lastSeenRun { fact("Last seen", .text("run \(last)")) }
        var content: [HTML] = [.element("dl", [.class("facts")], facts)]
        if let snippet = finding.snippet {
            content.append(
                PageParts.section("Code", [.element("pre", [.class("snippet")], [.element("code", text: snippet)])]))
        }
        content.append(PageParts.section("History", [Timeline.render(history, project: project)]))
        if context.canWrite { content += forms(finding, context: context) }
        let name = finding.rule.map { "\($0) " } ?? ""
        return PageLayout.render(title: "Finding #\(finding.id) \(name)", context: context, content: content)
    }

    private static func forms(_ finding: FindingRecord, context: PageContext) -> [HTML] {
        let project = context.project ?? ""
        let statuses = FindingLifecycle.personStatuses.map { status in
            var attributes = [HTMLAttribute("value", status.rawValue)]
            if status == finding.status { attributes.append(.flag("selected")) }
            return HTML.element("option", attributes, text: status.rawValue)
        }
        let statusForm = HTML.element(
            "form",
            [
                .id("status"), .class("stack"), HTMLAttribute("method", "post"),
                .action(PageRoutes.findingsStatus(project)),
            ],
            [
                PageLayout.csrfField(context), FindingsPage.hidden("number", String(finding.id)),
                PageParts.labelled(
                    "New status",
                    .element(
                        "select", [HTMLAttribute("name", "new-status"), HTMLAttribute("id", "new-status")], statuses)),
                PageParts.labelled(
                    "Reason",
                    .element(
                        "input",
                        [HTMLAttribute("type", "text"), HTMLAttribute("name", "reason"), HTMLAttribute("id", "reason")])
                ),
                .element("button", [HTMLAttribute("type", "submit")], text: "Set status"),
            ])
        let commentForm = HTML.element(
            "form",
            [
                .id("comment"), .class("stack"), HTMLAttribute("method", "post"),
                .action(PageRoutes.findingComments(project, finding.id)),
            ],
            [
                PageLayout.csrfField(context),
                PageParts.labelled(
                    "Comment",
                    .element(
                        "textarea",
                        [
                            HTMLAttribute("name", "text"), HTMLAttribute("id", "comment-text"),
                            HTMLAttribute("rows", "3"), .flag("required"),
                        ], [])),
                .element("button", [HTMLAttribute("type", "submit")], text: "Comment"),
            ])
        return [PageParts.section("Triage", [statusForm]), PageParts.section("Comment", [commentForm])]
    }
}
