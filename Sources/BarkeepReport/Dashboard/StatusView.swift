import BarkeepCore
import Foundation

/// The team dashboard (`barkeep status`): one terminal screen that a lead reads in ten seconds. A header block
/// (project, last scan, totals, blocked items, poses, checklist, screens, which rows are shown), a table per owner
/// when screens have owners, and a table with one row per screen in the reply's order, then the unmapped bucket
/// when it holds anything.
public enum StatusView {
    /// The widest line of the header block.
    public static let maximumWidth = 100

    /// The narrowest a key is cut to when the terminal is too narrow for the table.
    static let minimumKeyWidth = 12
    /// The narrowest an owner is cut to when the terminal is too narrow for the table.
    static let minimumOwnerWidth = 6
    /// Failing poses named in a row before the rest are counted (`+3`).
    static let namedFailures = 3
    /// Width of the header labels' column.
    private static let labelWidth = 11
    /// The line under the tables that says what their columns count.
    static let legend = "C H M L I: untriaged (proposed) findings by severity · IN PROGRESS: approved or applied"

    /// Renders the dashboard. `now` gives the last scan's age; `colored` adds ANSI escapes (bold labels, red
    /// critical counts and failed poses, green ✓) and changes nothing else. `width` is the terminal's: the screens
    /// table drops its titles, then cuts keys and owners (with `…`) to fit it; nil (not a terminal) cuts nothing.
    /// Every line ends with a line feed.
    public static func render(_ status: ProjectStatusReply, now: Date, colored: Bool, width: Int? = nil) -> String {
        var lines: [StyledText] = header(status, now: now, width: min(width ?? maximumWidth, maximumWidth))
        let owners = ownersTable(status)
        if !owners.isEmpty {
            lines.append("")
            lines += owners
        }
        lines.append("")
        lines += table(status, width: width)
        return lines.map { $0.rendered(colored: colored) + "\n" }.joined()
    }

    // MARK: - Header block

    private static func header(_ status: ProjectStatusReply, now: Date, width: Int) -> [StyledText] {
        let project = status.project
        let totals = status.totals
        var block: [(String, [StyledText])] = []
        block.append(
            (
                "Project",
                [
                    StyledText(project.name), StyledText("iOS SDK \(project.sdk)"),
                    StyledText("deployment target \(project.deploymentTarget)"),
                ]
            ))
        if let scan = status.scan {
            var pieces: [StyledText] = [
                StyledText("run \(scan.run)"),
                StyledText("\(ReportTime.minute(scan.ingested)) (\(ReportTime.age(of: scan.ingested, now: now)))"),
            ]
            if let commit = scan.commit { pieces.append(StyledText("commit \(commit.prefix(8))")) }
            pieces.append(StyledText([scan.tool, scan.toolVersion].compactMap { $0 }.joined(separator: " ")))
            block.append(("Last scan", pieces))
            var counts: [StyledText] = []
            if let files = scan.filesScanned { counts.append(StyledText("\(files) files")) }
            counts += scan.counts.map { StyledText("\($0.count) \($0.name)") }
            if !counts.isEmpty { block.append(("", counts)) }
        } else {
            block.append(("Last scan", ["none yet"]))
        }
        var needs: [StyledText] = [StyledText("\(totals.needsWork) \(totals.needsWork == 1 ? "needs" : "need") work")]
        if totals.unmapped > 0 { needs.append(StyledText("\(totals.unmapped) of them unmapped")) }
        // Each finding once (STATUS's totals), not the screens' rows summed; an older server does not send them.
        if let bySeverity = totals.needsWorkBySeverity, bySeverity.total > 0 {
            needs.append(StyledText(bySeverity.text))
        }
        block.append(("Findings", needs))
        let statuses = totals.nonzeroStatuses.map { status, count in
            StyledText("\(count) \(status.rawValue.replacingOccurrences(of: "_", with: " "))")
        }
        if !statuses.isEmpty { block.append(("", statuses)) }
        if totals.verifiedStillReported > 0 {
            // A verdict the scanner contradicts: never a count among others.
            let count = totals.verifiedStillReported
            block.append(
                (
                    "",
                    [
                        StyledText(
                            "\(count) verified \(count == 1 ? "finding" : "findings") still reported by a later scan"
                                + " (barkeep findings \(project.name) --status verified)", .red)
                    ]
                ))
        }
        let blocked = status.blocked.map { group in
            StyledText(group.sdk.map { "\(group.items) on the iOS \($0) SDK" } ?? "\(group.items) with no SDK yet")
        }
        block.append(("Blocked", blocked.isEmpty ? ["none"] : blocked))
        block.append(("Poses", [ratio(totals.posesPassed, totals.posesRequired, PoseResult.settledWord)]))
        block.append(("Checklist", [ratio(totals.stepsDone, totals.stepsApplicable, "steps done")]))
        block.append(("Screens", [StyledText("\(totals.screensDone) of \(totals.screens) done")]))
        if let selection = status.selection, selection.isFiltering {
            var pieces: [StyledText] = [
                StyledText(
                    selection.shown == selection.matched
                        ? "\(selection.shown) \(selection.shown == 1 ? "row" : "rows")"
                        : "\(selection.shown) of \(selection.matched) rows")
            ]
            if let owner = selection.owner { pieces.append(StyledText("owner \(owner)")) }
            if selection.isNotDoneOnly { pieces.append("not done") }
            if selection.sort != "key" { pieces.append(StyledText("by \(selection.sort)")) }
            block.append(("Showing", pieces))
        }

        var lines: [StyledText] = []
        for (label, pieces) in block {
            for (index, line) in TerminalLayout.wrap(pieces, width: width - labelWidth).enumerated() {
                let shown = index == 0 ? label : ""
                let padding = StyledText(TerminalLayout.spaces(labelWidth - shown.count))
                lines.append((shown.isEmpty ? padding : StyledText(shown, .bold) + padding) + line)
            }
        }
        return lines
    }

    private static func ratio(_ part: Int, _ whole: Int, _ noun: String) -> StyledText {
        let percent = TerminalLayout.percent(part, of: whole).map { " (\($0))" } ?? ""
        return StyledText("\(part)/\(whole) \(noun)\(percent)")
    }

    // MARK: - Owners table

    /// A row per owner, when any screen has one or the rows are one owner's (nobody's too).
    private static func ownersTable(_ status: ProjectStatusReply) -> [StyledText] {
        guard status.owners.contains(where: { $0.owner != nil }) || status.selection?.owner != nil else { return [] }
        let columns =
            [
                TerminalTable.Column(header: "OWNER", alignment: .left),
                TerminalTable.Column(header: "SCREENS", alignment: .right),
                TerminalTable.Column(header: "DONE", alignment: .right),
            ] + workColumns
        let rows = status.owners.map { owner -> [StyledText] in
            [
                StyledText(ScreenOwner.display(owner.owner)), StyledText(String(owner.screens)),
                countCell(owner.screensDone),
            ]
                + workCells(owner.untriaged, owner.inProgress, owner.blocked)
        }
        return TerminalTable(columns: columns, rows: rows).lines
    }

    // MARK: - Screens table

    /// Untriaged findings by severity (C H M L I, separated by one space), in progress, blocked.
    private static let workColumns =
        Severity.allCases.map { severity in
            TerminalTable.Column(header: severity.letter, alignment: .right, gap: severity == .info ? 2 : 1)
        } + [
            TerminalTable.Column(header: "IN PROGRESS", alignment: .right),
            TerminalTable.Column(header: "BLOCKED", alignment: .right),
        ]

    /// The cells of `workColumns`.
    private static func workCells(_ untriaged: SeverityCounts, _ inProgress: SeverityCounts, _ blocked: Int)
        -> [StyledText]
    {
        Severity.allCases.map { severityCell($0, untriaged) } + [countCell(inProgress.total), countCell(blocked)]
    }

    private static func table(_ status: ProjectStatusReply, width: Int?) -> [StyledText] {
        let showsUnmapped = !status.unmapped.isEmpty && status.selection?.owner == nil
        guard !status.screens.isEmpty || showsUnmapped else {
            if let selection = status.selection, selection.isFiltering {
                return ["No screen matches the filters."]
            }
            return ["No screens yet: add them with barkeep screen add or barkeep screen discover."]
        }
        var rows: [[StyledText]] = status.screens.map(row)
        if showsUnmapped {
            let unmapped = status.unmapped
            rows.append(
                [StyledText(ReportFinding.unmappedScreen), "", ""]
                    + workCells(unmapped.untriaged, unmapped.inProgress, unmapped.blocked) + ["", "", ""])
        }
        let columns =
            [
                TerminalTable.Column(header: "KEY", alignment: .left),
                TerminalTable.Column(header: "TITLE", alignment: .left),
                TerminalTable.Column(header: "OWNER", alignment: .left),
            ] + workColumns + [
                TerminalTable.Column(header: "STEPS", alignment: .right),
                TerminalTable.Column(header: "POSES", alignment: .left),
                TerminalTable.Column(header: "DONE", alignment: .left),
            ]
        var table = TerminalTable(columns: columns, rows: rows)
        let (keyColumn, titleColumn) = (0, 1)
        // Titles only when some screen has one and they fit; then keys, then owners, cut as far as needed.
        if !status.screens.contains(where: { $0.title != nil }) || width.map({ table.width > $0 }) == true {
            table = table.removing(column: titleColumn)
        }
        if let width, table.width > width {
            let keys = table.widths[keyColumn]
            table = table.cutting(column: keyColumn, to: max(minimumKeyWidth, keys - (table.width - width)))
        }
        if let width, table.width > width, let owner = table.columns.firstIndex(where: { $0.header == "OWNER" }) {
            let owners = table.widths[owner]
            table = table.cutting(column: owner, to: max(minimumOwnerWidth, owners - (table.width - width)))
        }
        return table.lines + [StyledText(legend)]
    }

    private static func row(_ screen: ScreenStatusRecord) -> [StyledText] {
        var poses = StyledText("\(screen.posesPassed)/\(screen.posesRequired)")
        for pose in screen.failedPoses.prefix(namedFailures) {
            poses = poses + " " + StyledText("✗" + pose, .red)
        }
        if screen.failedPoses.count > namedFailures {
            poses = poses + StyledText(" +\(screen.failedPoses.count - namedFailures)", .red)
        }
        return [StyledText(screen.key), StyledText(screen.title ?? ""), StyledText(screen.owner ?? "")]
            + workCells(screen.untriaged, screen.inProgress, screen.blocked) + [
                StyledText("\(screen.stepsDone)/\(screen.stepsApplicable)"),
                poses,
                screen.isDone ? StyledText("✓", .green) : "",
            ]
    }

    private static func severityCell(_ severity: Severity, _ counts: SeverityCounts) -> StyledText {
        let count = counts[severity]
        return count == 0 ? "·" : StyledText(String(count), severity == .critical ? .red : nil)
    }

    private static func countCell(_ count: Int) -> StyledText { count == 0 ? "·" : StyledText(String(count)) }
}
