import BarkeepAPI
import BarkeepCore

/// The screens × required poses matrix of the HTML report, as an inline `<svg id="pose-matrix">`: one `<rect>` per
/// cell, coloured by its latest result and carrying `data-screen`, `data-pose` and `data-result`, with the screen
/// keys and pose ids as `<text>` labels.
enum PoseMatrix {
    /// What a cell can hold, in the legend's order: each of Core's results, then none recorded.
    static let results: [PoseCellResult] = PoseResult.allCases.map { PoseCellResult($0) } + [PoseCellResult(nil)]

    /// Fill colours by result.
    static func color(_ cell: PoseCellResult) -> String {
        switch cell.result {
        case .passed: "#2e7d32"
        case .failed: "#c62828"
        case .notRun: "#f0a500"
        case .notApplicable: "#78909c"
        case nil: "#9e9e9e"
        }
    }

    /// How people read a result.
    static func label(_ cell: PoseCellResult) -> String {
        switch cell.result {
        case .passed: "passed"
        case .failed: "failed"
        case .notRun: "not run"
        case .notApplicable: "not applicable"
        case nil: "no result"
        }
    }

    private static let cellWidth = 40
    private static let cellHeight = 22
    private static let gap = 2
    private static let headerHeight = 24
    /// Keys longer than this are cut in the label (the full key stays in `data-screen` and the tooltip).
    private static let labelCharacters = 28

    /// The matrix of `screens` (with the app area) and their pose `cells`: rows are the screens that require poses,
    /// in order, then screens only the cells name (by key); columns are the `required` poses, then any other pose a
    /// screen requires. A screen has a cell for each pose it requires (the cells say which); one that it does not
    /// require is left empty.
    static func svg(
        screens statuses: [ScreenStatusRecord], cells: [PoseResultRecord], required: [String],
        escape: (String) -> String
    ) -> String {
        var poses = required
        poses += Set(cells.map(\.pose.rawValue)).subtracting(poses).sorted {
            (Int($0.dropFirst()) ?? 0, $0) < (Int($1.dropFirst()) ?? 0, $1)
        }
        var screens = statuses.filter { $0.posesRequired > 0 }.map(\.key)
        let known = Set(statuses.map(\.key))
        screens += Set(cells.map(\.screen)).subtracting(known).sorted()
        var results: [String: [String: PoseCellResult]] = [:]
        for cell in cells { results[cell.screen, default: [:]][cell.pose.rawValue] = cell.result }

        let longest = min(labelCharacters, screens.map(\.count).max() ?? 0)
        let labelWidth = max(60, longest * 7 + 12)
        let width = labelWidth + max(1, poses.count) * (cellWidth + gap) + 8
        let height = headerHeight + max(1, screens.count) * (cellHeight + gap) + 8
        var lines = [
            "<svg id=\"pose-matrix\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
                + " font-family=\"sans-serif\" font-size=\"12\">",
            "<title>Pose matrix: screens against required poses</title>",
        ]
        for (column, pose) in poses.enumerated() {
            let x = labelWidth + column * (cellWidth + gap) + cellWidth / 2
            lines.append("<text x=\"\(x)\" y=\"16\" text-anchor=\"middle\" class=\"pose\">\(escape(pose))</text>")
        }
        if screens.isEmpty {
            lines.append("<text x=\"0\" y=\"\(headerHeight + 15)\" fill=\"#777777\">No screens yet.</text>")
        }
        for (row, screen) in screens.enumerated() {
            let y = headerHeight + row * (cellHeight + gap)
            let shown = TerminalLayout.truncated(screen, to: labelCharacters)
            lines.append(
                "<text x=\"\(labelWidth - 8)\" y=\"\(y + 15)\" text-anchor=\"end\" class=\"screen\">\(escape(shown))"
                    + "</text>")
            for (column, pose) in poses.enumerated() {
                guard let result = results[screen]?[pose] else { continue }
                let x = labelWidth + column * (cellWidth + gap)
                lines.append(
                    "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cellWidth)\" height=\"\(cellHeight)\""
                        + " fill=\"\(color(result))\" data-screen=\"\(escape(screen))\" data-pose=\"\(escape(pose))\""
                        + " data-result=\"\(result.wire)\"><title>\(escape("\(screen) \(pose): \(label(result))"))"
                        + "</title></rect>")
            }
        }
        lines.append("</svg>")
        return lines.map { $0 + "\n" }.joined()
    }
}
