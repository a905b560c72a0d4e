import BarkeepAPI
import BarkeepCore

/// `/projects/{p}/screens/{key}`: a screen's checklist with each step's state, the findings of the screen and of
/// the components it uses, its items and what blocks them, its row of the pose matrix with screenshots, its
/// timeline, and what remains before it is done.
public enum ScreenPage {
    /// The page of SCREEN SHOW's `detail` and BLOCKED's `blocked` (only this screen's items are shown).
    public static func render(_ detail: ScreenDetail, blocked: [BlockedRecord], context: PageContext) -> String {
        let project = context.project ?? ""
        let screen = detail.screen
        let findingIDs = Set(detail.findings.map(\.id))
        let ownBlocked = blocked.filter { $0.finding.screen == screen.key || findingIDs.contains($0.finding.id) }
        var facts: [HTML] = [
            .element("dt", text: "Kind"), .element("dd", text: screen.kind.rawValue),
            .element("dt", text: "Title"), .element("dd", text: screen.title ?? "—"),
            .element("dt", text: "Owner"), .element("dd", text: screen.owner ?? "no one"),
            .element("dt", text: "State"),
            .element(
                "dd", [],
                [PageParts.mark(screen.isDone == true ? ("✓", "done", "ok") : ("○", "not done", "warn"))]),
        ]
        if let uses = screen.uses, !uses.isEmpty {
            facts += [
                .element("dt", text: screen.kind == .component ? "Used by" : "Uses"),
                .element(
                    "dd", [],
                    uses.map { key in
                        .element("a", [.href(PageRoutes.screen(project, key)), .class("chip")], text: key + " ")
                    }),
            ]
        }
        let content: [HTML] = [
            .element("dl", [.class("facts")], facts),
            PageParts.section("What remains", [recommendation(detail)]),
            PageParts.section(
                "Checklist",
                [checklist(detail, project: project)] + (context.canWrite ? [stepForm(detail, context: context)] : [])),
            PageParts.section("Poses", [poseRow(detail)]),
            PageParts.section(
                "Findings",
                [
                    detail.findings.isEmpty
                        ? PageParts.paragraph("No finding needs work on this screen or its components.")
                        : FindingsTable.render(
                            detail.findings, project: project,
                            caption: "Findings needing work on \(screen.key) and its components")
                ]),
            PageParts.section("Items and what blocks them", [items(ownBlocked, project: project)]),
            PageParts.section("Timeline", [Timeline.render(detail.history, project: project)]),
        ]
        return PageLayout.render(title: "Screen \(screen.key)", context: context, content: content)
    }

    private static func recommendation(_ detail: ScreenDetail) -> HTML {
        guard !detail.why.isEmpty else { return PageParts.paragraph("✓ Done: nothing remains.") }
        return .element(
            "ul", [],
            detail.why.map { reason in
                .element("li", [], [.element("strong", text: reason.topic + ": "), .text(reason.text)])
            })
    }

    private static func checklist(_ detail: ScreenDetail, project: String) -> HTML {
        let rows = detail.steps.map { step -> HTML in
            let blockers: [HTML] = (step.blockers ?? []).map { number in
                if let value = Int(number) {
                    return .element("a", [.href(PageRoutes.finding(project, value))], text: "#\(number) ")
                }
                return .text(number + " ")
            }
            return .element(
                "tr",
                [HTMLAttribute("data-step", String(step.step)), HTMLAttribute("data-state", step.state.rawValue)],
                [
                    .element("td", [.class("num")], [.number(step.step)]),
                    .element("th", [HTMLAttribute("scope", "row")], text: step.key),
                    .element("td", [.class("state")], [PageParts.mark(PageParts.stepState(step.state))]),
                    .element("td", [], [PageParts.mark(PageParts.stepState(step.recorded))]),
                    .element("td", [], blockers.isEmpty ? [.text("—")] : blockers),
                ])
        }
        return PageParts.table(
            id: "steps", caption: "Checklist steps",
            headers: [
                .init(title: "Step", key: "step", isNumeric: true), .init(title: "Key", key: "key"),
                .init(title: "State", key: "state"), .init(title: "Set by a person", key: "recorded"),
                .init(title: "Blocked by", key: "blockers"),
            ],
            rows: rows)
    }

    /// A writer's form setting one of the screen's steps (STEP SET), as `barkeep step set` does.
    private static func stepForm(_ detail: ScreenDetail, context: PageContext) -> HTML {
        let steps = detail.steps.map { step in
            HTML.element("option", [HTMLAttribute("value", String(step.step))], text: "\(step.step) \(step.key)")
        }
        let states = StepState.allCases.map { state in
            HTML.element("option", [HTMLAttribute("value", state.rawValue)], text: PageParts.stepState(state).word)
        }
        return .element(
            "form",
            [
                .id("step"), .class("stack"), HTMLAttribute("method", "post"),
                .action(PageRoutes.steps(context.project ?? "")),
            ],
            [
                PageLayout.csrfField(context), FindingsPage.hidden("screen", detail.screen.key),
                PageParts.labelled(
                    "Step",
                    .element("select", [HTMLAttribute("name", "step"), HTMLAttribute("id", "step-step")], steps)),
                PageParts.labelled(
                    "State",
                    .element("select", [HTMLAttribute("name", "state"), HTMLAttribute("id", "step-state")], states)),
                PageParts.labelled(
                    "Note",
                    .element(
                        "input",
                        [
                            HTMLAttribute("type", "text"), HTMLAttribute("name", "note"),
                            HTMLAttribute("id", "step-note"),
                        ])),
                .element("button", [HTMLAttribute("type", "submit")], text: "Set step"),
            ])
    }

    private static func poseRow(_ detail: ScreenDetail) -> HTML {
        guard !detail.poses.isEmpty else { return PageParts.paragraph("No pose is required of this screen.") }
        let headers = detail.poses.map { PageParts.Header(title: $0.pose.rawValue, key: $0.pose.rawValue) }
        let row = HTML.element(
            "tr", [HTMLAttribute("data-screen", detail.screen.key)], detail.poses.map { PoseCell.render($0) })
        return PageParts.table(id: "poses", caption: "Required poses, latest result", headers: headers, rows: [row])
    }

    private static func items(_ blocked: [BlockedRecord], project: String) -> HTML {
        guard !blocked.isEmpty else { return PageParts.paragraph("No item of this screen waits for the SDK.") }
        let rows = blocked.map { record -> HTML in
            .element(
                "tr", [HTMLAttribute("data-finding", String(record.finding.id))],
                [
                    .element(
                        "th", [HTMLAttribute("scope", "row")],
                        [
                            .element(
                                "a", [.href(PageRoutes.finding(project, record.finding.id))],
                                text: "#\(record.finding.id)")
                        ]),
                    PageParts.cell(record.finding.title ?? record.finding.rule ?? record.finding.source),
                    .element("td", [], [.element("code", text: record.symbol ?? "—")]),
                    PageParts.cell(record.sdk == BlockedRecord.noSDK ? "no SDK yet" : "iOS " + record.sdk),
                    .element("td", [], [PageParts.status(record.finding.status)]),
                ])
        }
        return PageParts.table(
            id: "items", caption: "Items waiting for an SDK",
            headers: [
                .init(title: "Item", key: "id"), .init(title: "What", key: "title"),
                .init(title: "Symbol", key: "symbol"), .init(title: "SDK", key: "sdk"),
                .init(title: "Status", key: "status"),
            ],
            rows: rows)
    }
}
