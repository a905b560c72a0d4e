import BarkeepAPI
import BarkeepCore
import BarkeepReport

/// `/projects/{p}`: the dashboard of `barkeep status` — totals, screens done, blocked by SDK and by symbol, pose
/// coverage, the burndown as SVG — and the screens table (`table#screens tr[data-screen=KEY]`), sortable, and
/// filterable by owner, state and severity (in the URL, so a link is a saved view; the script filters as you type).
public enum OverviewPage {
    /// The URL keys of the screens table's filters.
    public enum FilterKey {
        /// Only this owner's screens.
        public static let owner = "owner"
        /// `done` or `open`.
        public static let state = "state"
        /// Only screens with findings of this severity needing work.
        public static let severity = "severity"
    }

    /// What `state` may say.
    static let states = ["done", "open"]

    /// The overview of `status` (STATUS), `blocked` (BLOCKED) and `burndown` (BURNDOWN's points).
    public static func render(
        status: ProjectStatusReply, blocked: [BlockedRecord], burndown: [BurndownPoint], context: PageContext
    ) -> String {
        let content: [HTML] = [
            .element("div", [.class("grid")], [totals(status), blockedBySDK(status), lastScan(status)]),
            PageParts.section("Blocked by symbol", [blockedBySymbol(blocked)]),
            PageParts.section("Burndown", [HTML.burndown(burndown, title: "Findings needing work")]),
            PageParts.section("Screens", [filters(status, context), screensTable(status, context)]),
        ]
        return PageLayout.render(title: status.project.name, context: context, content: content)
    }

    private static func fact(_ term: String, _ value: String) -> [HTML] {
        [.element("dt", text: term), .element("dd", text: value)]
    }

    private static func totals(_ status: ProjectStatusReply) -> HTML {
        let totals = status.totals
        var facts: [HTML] =
            fact("Screens done", "\(totals.screensDone) of \(totals.screens)")
            + fact("Checklist steps", "\(totals.stepsDone) of \(totals.stepsApplicable) done")
            + fact("Pose coverage", "\(totals.posesPassed) of \(totals.posesRequired) \(PoseResult.settledWord)")
            + fact("Needing work", "\(totals.needsWork) findings")
        // Each finding once: the screens' rows count a component's finding under every screen that uses it.
        if let bySeverity = totals.needsWorkBySeverity {
            facts += fact("By severity", PageParts.severityCounts(bySeverity))
        }
        for (status, count) in totals.nonzeroStatuses {
            facts += fact(status.rawValue, String(count))
        }
        if totals.unmapped > 0 { facts += fact("Unmapped", "\(totals.unmapped) findings no screen counts") }
        if totals.verifiedStillReported > 0 {
            facts += fact("Verified, still reported", String(totals.verifiedStillReported))
        }
        return .element(
            "section", [.class("card")], [.element("h2", text: "Totals"), .element("dl", [.class("facts")], facts)])
    }

    private static func blockedBySDK(_ status: ProjectStatusReply) -> HTML {
        let content: HTML =
            status.blocked.isEmpty
            ? PageParts.paragraph("Nothing is blocked on the SDK.")
            : .element(
                "ul", [],
                status.blocked.map { group in
                    .element(
                        "li",
                        text: "\(group.items) \(group.items == 1 ? "item waits" : "items wait") for \(group.sdkName)")
                })
        return .element("section", [.class("card")], [.element("h2", text: "Blocked by SDK"), content])
    }

    private static func lastScan(_ status: ProjectStatusReply) -> HTML {
        guard let scan = status.scan else {
            return .element(
                "section", [.class("card")],
                [.element("h2", text: "Last scan"), PageParts.paragraph("No scan yet.")])
        }
        var facts = fact("Run", String(scan.run)) + fact("Tool", scan.tool + (scan.toolVersion.map { " " + $0 } ?? ""))
        facts += [.element("dt", text: "Ingested"), .element("dd", [], [PageParts.time(scan.ingested)])]
        if let commit = scan.commit { facts += fact("Commit", commit) }
        let counts = scan.counts.map { "\($0.count) \($0.name)" }
        if !counts.isEmpty { facts += fact("Changes", counts.joined(separator: ", ")) }
        return .element(
            "section", [.class("card")], [.element("h2", text: "Last scan"), .element("dl", [.class("facts")], facts)])
    }

    private static func blockedBySymbol(_ blocked: [BlockedRecord]) -> HTML {
        var counts: [String: (sdk: String, symbol: String, items: Set<Int>)] = [:]
        var order: [String] = []
        for record in blocked {
            let symbol = record.symbol ?? "—"
            let key = record.sdk + "\u{0}" + symbol
            if counts[key] == nil {
                counts[key] = (record.sdk, symbol, [])
                order.append(key)
            }
            counts[key]?.items.insert(record.finding.id)
        }
        guard !order.isEmpty else { return PageParts.paragraph("No item waits for an SDK symbol.") }
        let rows = order.compactMap { counts[$0] }.map { group in
            HTML.element(
                "tr", [],
                [
                    .element("th", [HTMLAttribute("scope", "row")], [.element("code", text: group.symbol)]),
                    PageParts.cell(group.sdk == BlockedRecord.noSDK ? "no SDK yet" : "iOS " + group.sdk),
                    PageParts.cell(number: group.items.count),
                ])
        }
        return PageParts.table(
            id: "blocked", caption: "Items blocked, by the symbol they wait for",
            headers: [
                .init(title: "Symbol", key: "symbol"), .init(title: "SDK", key: "sdk"),
                .init(title: "Items", key: "items", isNumeric: true),
            ],
            rows: rows, sortable: true)
    }

    private static func filters(_ status: ProjectStatusReply, _ context: PageContext) -> HTML {
        let owners = Array(Set(status.screens.compactMap(\.owner))).sorted()
        func select(_ label: String, _ key: String, _ values: [String]) -> HTML {
            let chosen = context.url.value(of: key) ?? ""
            let options = ([""] + values).map { value -> HTML in
                var attributes = [HTMLAttribute("value", value)]
                if value == chosen { attributes.append(.flag("selected")) }
                return .element("option", attributes, text: value.isEmpty ? "any" : value)
            }
            return .element(
                "label", [],
                [
                    .text(label),
                    .element(
                        "select",
                        [
                            HTMLAttribute("name", key), HTMLAttribute("id", "filter-" + key),
                            HTMLAttribute("data-key", key),
                        ],
                        options),
                ])
        }
        return .element(
            "form",
            [
                .class("filters"), HTMLAttribute("method", "get"), .action(context.url.setting("sort", to: nil)),
                HTMLAttribute("data-table", "screens"),
            ],
            [
                select("Owner", FilterKey.owner, owners),
                select("State", FilterKey.state, states),
                select("Severity", FilterKey.severity, Severity.allCases.map(\.rawValue)),
                .element(
                    "label", [],
                    [
                        .text("Search"),
                        .element(
                            "input",
                            [
                                HTMLAttribute("type", "search"), HTMLAttribute("id", "filter-text"),
                                HTMLAttribute("data-key", "text"),
                            ]),
                    ]),
                .element("button", [HTMLAttribute("type", "submit")], text: "Apply"),
                .element("output", [HTMLAttribute("aria-live", "polite")], []),
            ])
    }

    /// The severities with findings needing work on `screen`.
    static func severities(_ screen: ScreenStatusRecord) -> [String] {
        Severity.allCases.filter { screen.needsWork[$0] > 0 }.map(\.rawValue)
    }

    /// Whether `screen` passes the URL's filters.
    static func matches(_ screen: ScreenStatusRecord, _ url: PageURL) -> Bool {
        if let owner = url.value(of: FilterKey.owner), !owner.isEmpty, screen.owner != owner { return false }
        if let state = url.value(of: FilterKey.state), !state.isEmpty, (state == "done") != screen.isDone {
            return false
        }
        if let severity = url.value(of: FilterKey.severity), !severity.isEmpty,
            !severities(screen).contains(severity)
        {
            return false
        }
        return true
    }

    private static func screensTable(_ status: ProjectStatusReply, _ context: PageContext) -> HTML {
        let project = status.project.name
        let rows = status.screens.filter { matches($0, context.url) }.map { screen -> HTML in
            let poses = "\(screen.posesPassed)/\(screen.posesRequired)"
            let failed = screen.failedPoses.isEmpty ? "" : " ✗ " + screen.failedPoses.joined(separator: " ")
            return .element(
                "tr",
                [
                    HTMLAttribute("data-screen", screen.key), HTMLAttribute("data-owner", screen.owner ?? ""),
                    HTMLAttribute("data-state", screen.isDone ? "done" : "open"),
                    HTMLAttribute("data-severity", severities(screen).joined(separator: " ")),
                ],
                [
                    .element(
                        "th", [HTMLAttribute("scope", "row")],
                        [.element("a", [.href(PageRoutes.screen(project, screen.key))], text: screen.key)]),
                    PageParts.cell(screen.title),
                    PageParts.cell(screen.owner),
                    .element(
                        "td", [],
                        [PageParts.mark(screen.isDone ? ("✓", "done", "ok") : ("○", "open", "warn"))]),
                    .element(
                        "td", [HTMLAttribute("data-sort", String(screen.needsWork.total))],
                        text: PageParts.severityCounts(screen.needsWork)),
                    .element(
                        "td", [.class("num"), HTMLAttribute("data-sort", String(screen.stepsDone))],
                        text: "\(screen.stepsDone)/\(screen.stepsApplicable)"),
                    .element(
                        "td", [HTMLAttribute("data-sort", String(screen.posesPassed))], text: poses + failed),
                    PageParts.cell(number: screen.blocked),
                ])
        }
        return PageParts.table(
            id: "screens", caption: "Screens (\(rows.count) of \(status.screens.count))",
            headers: [
                .init(title: "Screen", key: "key"), .init(title: "Title", key: "title"),
                .init(title: "Owner", key: "owner"), .init(title: "State", key: "state"),
                .init(title: "Needing work", key: "severity"), .init(title: "Steps", key: "steps", isNumeric: true),
                .init(title: "Poses", key: "poses"), .init(title: "Blocked", key: "blocked", isNumeric: true),
            ],
            rows: rows, sortable: true)
    }
}
