import BarkeepCore
import Foundation

/// The burndown of findings needing work (and, of those, blocked items) over runs or days, drawn for a terminal
/// or as SVG.
public enum BurndownChart {
    /// The mark of the needs-work series in the terminal chart.
    public static let needsWorkMark: Character = "*"
    /// The mark of the blocked series.
    public static let blockedMark: Character = "x"
    /// The mark where both series fall on the same cell.
    public static let bothMark: Character = "#"

    // MARK: - Terminal

    /// A text chart `width` columns by `height` rows of plot (at least 1 by 2), plus the y axis labelled with
    /// counts (the maximum, the middle from 5 rows up, and 0), the x axis with the first and last label, and a
    /// legend with each series' first and last value. With more points than columns the points are sampled evenly,
    /// the first and the last always kept; fewer points are spread over the width.
    public static func terminal(_ points: [BurndownPoint], width: Int, height: Int) -> String {
        guard let first = points.first, let last = points.last else {
            return "No burndown yet: it starts with the first scan.\n"
        }
        let columns = max(1, width)
        let rows = max(2, height)
        let shown = sample(points, to: columns)
        let maximum = max(1, shown.map { max($0.needsWork, $0.blocked) }.max() ?? 0)
        func row(_ value: Int) -> Int {
            // Rounded to the nearest row, row 0 at the top.
            (rows - 1) - (value * (rows - 1) * 2 + maximum) / (2 * maximum)
        }
        func column(_ index: Int) -> Int {
            shown.count == 1 ? 0 : (index * (columns - 1) * 2 + (shown.count - 1)) / (2 * (shown.count - 1))
        }
        var grid = Array(repeating: Array(repeating: Character(" "), count: columns), count: rows)
        for (index, point) in shown.enumerated() {
            grid[row(point.blocked)][column(index)] = blockedMark
        }
        for (index, point) in shown.enumerated() {
            let (y, x) = (row(point.needsWork), column(index))
            grid[y][x] = grid[y][x] == blockedMark ? bothMark : needsWorkMark
        }
        var labels: [Int: String] = [0: String(maximum), rows - 1: "0"]
        if rows >= 5 {
            let middle = (rows - 1) / 2
            labels[middle] = String((maximum * (rows - 1 - middle) * 2 + (rows - 1)) / (2 * (rows - 1)))
        }
        let labelWidth = String(maximum).count
        var lines: [String] = []
        for (index, cells) in grid.enumerated() {
            let label = labels[index] ?? ""
            let axis = labels[index] == nil ? " │" : " ┤"
            let line = TerminalLayout.spaces(labelWidth - label.count) + label + axis + String(cells)
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        let margin = TerminalLayout.spaces(labelWidth + 2)
        lines.append(TerminalLayout.spaces(labelWidth) + " └" + String(repeating: "─", count: columns))
        if points.count == 1 {
            lines.append(margin + first.label)
        } else {
            let gap = columns - first.label.count - last.label.count
            lines.append(margin + first.label + (gap >= 2 ? TerminalLayout.spaces(gap) : " … ") + last.label)
        }
        lines.append(
            margin + "\(needsWorkMark) needs work \(first.needsWork) → \(last.needsWork)   "
                + "\(blockedMark) blocked \(first.blocked) → \(last.blocked)   \(bothMark) both")
        return lines.map { $0 + "\n" }.joined()
    }

    /// At most `count` points, evenly spaced over `points`, the first and the last always among them.
    static func sample(_ points: [BurndownPoint], to count: Int) -> [BurndownPoint] {
        guard points.count > count else { return points }
        guard count > 1 else { return points.last.map { [$0] } ?? [] }
        return (0..<count).map { index in
            points[(index * (points.count - 1) * 2 + (count - 1)) / (2 * (count - 1))]
        }
    }

    // MARK: - SVG

    /// The SVG canvas and plot area, in user units.
    enum Geometry {
        /// Canvas width.
        static let width = 640
        /// Canvas height.
        static let height = 320
        /// x of the y axis: the first point's x.
        static let left = 56
        /// x of the last point.
        static let right = 616
        /// y of the largest value.
        static let top = 40
        /// y of zero: the x axis.
        static let bottom = 272
    }

    /// Colour of the needs-work series.
    static let needsWorkColor = "#c62828"
    /// Colour of the blocked series (drawn dashed as well, for readers who cannot tell the colours apart).
    static let blockedColor = "#e08a00"

    /// A standalone SVG document (XML declaration, `xmlns`, width, height and viewBox) with the axes, the two
    /// series as `<polyline id="needs-work">` and `<polyline id="blocked">`, point i at x = left + i × step and
    /// y = bottom − value × scale, and each point as a `<circle>` carrying `data-label`, `data-needs-work` and
    /// `data-blocked`. Every text is escaped for XML.
    public static func svg(_ points: [BurndownPoint], title: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement(points, title: title, namespace: true)
    }

    /// The `<svg id="burndown">` element for inline use in an HTML page (the web dashboard): no namespace attribute,
    /// every text escaped for HTML.
    public static func inlineSVG(_ points: [BurndownPoint], title: String) -> String {
        svgElement(points, title: title, namespace: false, escape: Escaping.html)
    }

    /// The `<svg id="burndown">` element. Inline in HTML the namespace is implied, so `namespace: false` leaves the
    /// `xmlns` attribute (a URL) out; `escape` is how text is escaped.
    static func svgElement(
        _ points: [BurndownPoint], title: String, namespace: Bool, escape: (String) -> String = Escaping.xml
    ) -> String {
        typealias G = Geometry
        let maximum = max(1, points.map { max($0.needsWork, $0.blocked) }.max() ?? 0)
        let step = points.count > 1 ? Double(G.right - G.left) / Double(points.count - 1) : 0
        let scale = Double(G.bottom - G.top) / Double(maximum)
        func x(_ index: Int) -> String { number(Double(G.left) + Double(index) * step) }
        func y(_ value: Int) -> String { number(Double(G.bottom) - Double(value) * scale) }
        func polyline(_ id: String, _ color: String, dashed: Bool, _ value: (BurndownPoint) -> Int) -> String {
            let coordinates = points.enumerated().map { "\(x($0.offset)),\(y(value($0.element)))" }
            let dash = dashed ? " stroke-dasharray=\"6 4\"" : ""
            return "<polyline id=\"\(id)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash)"
                + " points=\"\(coordinates.joined(separator: " "))\"/>"
        }
        let xmlns = namespace ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
        var lines = [
            "<svg\(xmlns) id=\"burndown\" width=\"\(G.width)\" height=\"\(G.height)\""
                + " viewBox=\"0 0 \(G.width) \(G.height)\" font-family=\"sans-serif\" font-size=\"12\">",
            "<title>\(escape(title))</title>",
            "<text x=\"\(G.left)\" y=\"24\" font-size=\"14\" font-weight=\"bold\">\(escape(title))</text>",
        ]
        var ticks = [0, maximum]
        if maximum >= 4 { ticks.insert(maximum / 2, at: 1) }
        for tick in ticks {
            lines.append(
                "<line x1=\"\(G.left)\" y1=\"\(y(tick))\" x2=\"\(G.right)\" y2=\"\(y(tick))\" stroke=\"#dddddd\"/>")
            lines.append(
                "<text x=\"\(G.left - 6)\" y=\"\(number(Double(G.bottom) - Double(tick) * scale + 4))\""
                    + " text-anchor=\"end\">\(tick)</text>")
        }
        lines.append("<line x1=\"\(G.left)\" y1=\"\(G.top)\" x2=\"\(G.left)\" y2=\"\(G.bottom)\" stroke=\"#555555\"/>")
        lines.append(
            "<line x1=\"\(G.left)\" y1=\"\(G.bottom)\" x2=\"\(G.right)\" y2=\"\(G.bottom)\" stroke=\"#555555\"/>")
        if let first = points.first, let last = points.last {
            lines.append("<text x=\"\(G.left)\" y=\"\(G.bottom + 18)\">\(escape(first.label))</text>")
            if points.count > 1 {
                lines.append(
                    "<text x=\"\(G.right)\" y=\"\(G.bottom + 18)\" text-anchor=\"end\">\(escape(last.label))"
                        + "</text>")
            }
        } else {
            lines.append(
                "<text x=\"\((G.left + G.right) / 2)\" y=\"\((G.top + G.bottom) / 2)\" text-anchor=\"middle\""
                    + " fill=\"#777777\">No burndown yet: it starts with the first scan.</text>")
        }
        lines.append(polyline("needs-work", needsWorkColor, dashed: false) { $0.needsWork })
        lines.append(polyline("blocked", blockedColor, dashed: true) { $0.blocked })
        for (index, point) in points.enumerated() {
            lines.append(
                "<circle cx=\"\(x(index))\" cy=\"\(y(point.needsWork))\" r=\"3\" fill=\"\(needsWorkColor)\""
                    + " data-label=\"\(escape(point.label))\" data-needs-work=\"\(point.needsWork)\""
                    + " data-blocked=\"\(point.blocked)\"/>")
        }
        let legend = G.bottom + 40
        lines.append(
            "<line x1=\"\(G.left)\" y1=\"\(legend - 4)\" x2=\"\(G.left + 20)\" y2=\"\(legend - 4)\""
                + " stroke=\"\(needsWorkColor)\" stroke-width=\"2\"/>")
        lines.append("<text x=\"\(G.left + 26)\" y=\"\(legend)\">needs work</text>")
        lines.append(
            "<line x1=\"\(G.left + 120)\" y1=\"\(legend - 4)\" x2=\"\(G.left + 140)\" y2=\"\(legend - 4)\""
                + " stroke=\"\(blockedColor)\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>")
        lines.append("<text x=\"\(G.left + 146)\" y=\"\(legend)\">blocked</text>")
        lines.append("</svg>")
        return lines.map { $0 + "\n" }.joined()
    }

    /// A coordinate with at most two decimals and no trailing zeros (`56`, `137.33`), whatever the locale.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let whole = magnitude / 100
        let fraction = magnitude % 100
        switch fraction {
        case 0: return "\(sign)\(whole)"
        case _ where fraction % 10 == 0: return "\(sign)\(whole).\(fraction / 10)"
        default: return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
        }
    }
}
