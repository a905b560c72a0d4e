import BarkeepCore
import Foundation

/// The team dashboard (`barkeep status`): one terminal screen, at most 100 columns, that a lead reads in ten
/// seconds. A header block (project, last scan, totals, blocked items, poses, checklist, screens) and a table with
/// one row per screen, in the reply's order, then the unmapped bucket when it holds anything.
public enum StatusView {
    /// The widest line the dashboard writes.
    public static let maximumWidth = 100

    /// The longest screen key shown before it is cut with `…`.
    static let keyWidth = 22
    /// The longest owner shown before it is cut with `…`.
    static let ownerWidth = 12
    /// Failing poses named in a row before the rest are counted (`+3`).
    static let namedFailures = 3
    /// Width of the header labels' column.
    private static let labelWidth = 11

    /// Renders the dashboard. `now` gives the last scan's age; `colored` adds ANSI escapes (bold labels, red
    /// critical counts and failed poses, green ✓) and changes nothing else. Every line ends with a line feed.
    public static func render(_ status: ProjectStatus, now: Date, colored: Bool) -> String {
        var lines: [StyledText] = header(status, now: now)
        lines.append("")
        lines += table(status)
        return lines.map { $0.rendered(colored: colored) + "\n" }.joined()
    }

    // MARK: - Header block

    private static func header(_ status: ProjectStatus, now: Date) -> [StyledText] {
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
        block.append(("Findings", needs))
        let statuses = totals.nonzeroStatuses.map { status, count in
            StyledText("\(count) \(status.rawValue.replacingOccurrences(of: "_", with: " "))")
        }
        if !statuses.isEmpty { block.append(("", statuses)) }
        let blocked = status.blocked.map { group in
            StyledText(group.sdk.map { "\(group.items) on the iOS \($0) SDK" } ?? "\(group.items) with no SDK yet")
        }
        block.append(("Blocked", blocked.isEmpty ? ["none"] : blocked))
        block.append(("Poses", [ratio(totals.posesPassed, totals.posesRequired, "passed")]))
        block.append(("Checklist", [ratio(totals.stepsDone, totals.stepsApplicable, "steps done")]))
        block.append(("Screens", [StyledText("\(totals.screensDone) of \(totals.screens) done")]))

        var lines: [StyledText] = []
        for (label, pieces) in block {
            for (index, line) in TerminalLayout.wrap(pieces, width: maximumWidth - labelWidth).enumerated() {
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

    // MARK: - Screens table

    private enum Alignment { case left, right }

    private static func table(_ status: ProjectStatus) -> [StyledText] {
        guard !status.screens.isEmpty || !status.unmapped.isEmpty else {
            return ["No screens yet: add them with barkeep screen add or barkeep screen discover."]
        }
        var rows: [[StyledText]] = status.screens.map(row)
        if !status.unmapped.isEmpty {
            let counts = status.unmapped.needsWork
            rows.append(
                [StyledText(ReportFinding.unmappedScreen), ""] + Severity.allCases.map { severityCell($0, counts) }
                    + [countCell(status.unmapped.blocked), "", "", ""])
        }
        let headers: [StyledText] = ["KEY", "OWNER", "C", "H", "M", "L", "I", "BLOCKED", "STEPS", "POSES", "DONE"]
            .map { StyledText($0, .bold) }
        let alignments: [Alignment] = [.left, .left] + Array(repeating: .right, count: 7) + [.left, .left]
        var widths = headers.map(\.width)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.width) }
        }
        // Severity columns are separated by one space, the others by two.
        let gaps = [2, 2, 1, 1, 1, 1, 2, 2, 2, 2]
        func line(_ cells: [StyledText]) -> StyledText {
            var result = StyledText()
            for (index, cell) in cells.enumerated() {
                let padding = TerminalLayout.spaces(widths[index] - cell.width)
                let isLast = index == cells.count - 1
                switch alignments[index] {
                case .left: result = result + cell + StyledText(isLast ? "" : padding)
                case .right: result = result + StyledText(padding) + cell
                }
                if !isLast { result = result + StyledText(TerminalLayout.spaces(gaps[index])) }
            }
            // Trailing blank cells leave trailing spaces: drop them so lines compare and paste cleanly.
            while let last = result.spans.last, last.style == nil, last.text.last == " " || last.text.isEmpty {
                let trimmed = String(last.text.reversed().drop { $0 == " " }.reversed())
                if trimmed.isEmpty {
                    result.spans.removeLast()
                } else {
                    result.spans[result.spans.count - 1].text = trimmed
                    break
                }
            }
            return result
        }
        return [line(headers)] + rows.map(line)
    }

    private static func row(_ screen: ScreenStatus) -> [StyledText] {
        let severities = Severity.allCases.map { severityCell($0, screen.needsWork) }
        var poses = StyledText("\(screen.posesPassed)/\(screen.posesRequired)")
        for pose in screen.failedPoses.prefix(namedFailures) {
            poses = poses + " " + StyledText("✗" + pose, .red)
        }
        if screen.failedPoses.count > namedFailures {
            poses = poses + StyledText(" +\(screen.failedPoses.count - namedFailures)", .red)
        }
        return [
            StyledText(TerminalLayout.truncated(screen.key, to: keyWidth)),
            StyledText(TerminalLayout.truncated(screen.owner ?? "", to: ownerWidth)),
        ] + severities + [
            countCell(screen.blocked),
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
