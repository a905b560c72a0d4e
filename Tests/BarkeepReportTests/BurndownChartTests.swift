import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

@testable import BarkeepReport

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Points labelled `run 1`, `run 2`, … an hour apart.
private func points(_ values: [(Int, Int)]) -> [BurndownPoint] {
    values.enumerated().map { index, value in
        BurndownPoint(
            label: "run \(index + 1)", at: Date(timeIntervalSince1970: Double(index) * 3_600), needsWork: value.0,
            blocked: value.1)
    }
}

@Suite("BurndownChart")
struct BurndownChartTests {
    // MARK: - Terminal

    @Test("no points: a sentence, not an empty chart")
    func terminalEmpty() {
        #expect(BurndownChart.terminal([], width: 40, height: 8) == "No burndown yet: it starts with the first scan.\n")
    }

    @Test("one point")
    func terminalOne() {
        #expect(
            BurndownChart.terminal(points([(4, 1)]), width: 10, height: 5) == """
                4 ┤*
                  │
                2 ┤
                  │x
                0 ┤
                  └──────────
                   run 1
                   * needs work 4 → 4   x blocked 1 → 1   # both

                """)
    }

    @Test("a few points spread over the width; equal values share a cell")
    func terminalFew() {
        #expect(
            BurndownChart.terminal(points([(6, 2), (4, 2), (2, 2), (0, 0)]), width: 10, height: 4) == """
                6 ┤*
                  │   *
                  │x  x  #
                0 ┤         #
                  └──────────
                   run 1 … run 4
                   * needs work 6 → 0   x blocked 2 → 0   # both

                """)
    }

    @Test("more points than columns: sampled evenly, first and last kept, every line within the width")
    func terminalMany() throws {
        let many = points((0..<200).map { (200 - $0, $0 % 7) })
        let chart = BurndownChart.terminal(many, width: 20, height: 6)
        let lines = chart.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 6 + 3)
        #expect(lines[0].hasPrefix("200 ┤*"))
        #expect(lines[5].hasPrefix("  0 ┤"))
        #expect(lines[6] == "    └" + String(repeating: "─", count: 20))
        #expect(lines[7] == "     run 1        run 200")
        #expect(lines[8].contains("* needs work 200 → 1"))
        for line in lines.prefix(6) { #expect(line.count <= 5 + 20) }
        // 20 columns, one mark each (needs work over blocked when they fall together).
        let marks = lines.prefix(6).map { line in line.dropFirst(5).filter { "*#".contains($0) }.count }
        #expect(marks.reduce(0, +) == 20)
        let sampled = BurndownChart.sample(many, to: 20)
        #expect(sampled.count == 20)
        #expect(sampled.first == many.first)
        #expect(sampled.last == many.last)
        #expect(zip(sampled, sampled.dropFirst()).allSatisfy { $0.at < $1.at })
    }

    @Test("sampling keeps the last point even with one column")
    func sampleOne() {
        let three = points([(3, 0), (2, 0), (1, 0)])
        #expect(BurndownChart.sample(three, to: 1) == [three[2]])
        #expect(BurndownChart.sample(three, to: 3) == three)
        #expect(BurndownChart.terminal(three, width: 1, height: 2).hasPrefix("1 ┤*\n0 ┤x\n"))
    }

    // MARK: - SVG

    @Test(
        "SVG: every circle carries its point's values, in order, and each polyline has as many points",
        arguments: [0, 1, 2, 7, 60])
    func svgRoundTrip(count: Int) throws {
        let input = points((0..<count).map { (count * 3 - $0 * 2, $0 % 3) })
        let svg = BurndownChart.svg(input, title: "Burndown — app")
        let document = try XMLDocumentScan(svg)
        #expect(document.root?.name == "svg")
        #expect(document.root?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(document.root?.attributes["viewBox"] == "0 0 640 320")
        #expect(document.root?.attributes["width"] == "640")
        let circles = document.elements(named: "circle")
        #expect(circles.map { $0.attributes["data-label"] } == input.map(\.label))
        #expect(circles.map { $0.attributes["data-needs-work"] } == input.map { String($0.needsWork) })
        #expect(circles.map { $0.attributes["data-blocked"] } == input.map { String($0.blocked) })
        let polylines = Dictionary(
            document.elements(named: "polyline").map { ($0.attributes["id"] ?? "", $0) },
            uniquingKeysWith: { a, _ in a })
        for (id, value) in [("needs-work", \BurndownPoint.needsWork), ("blocked", \BurndownPoint.blocked)] {
            let coordinates = try #require(polylines[id]?.attributes["points"]).split(separator: " ")
            #expect(coordinates.count == input.count)
            // x = left + i * step, y = bottom - value * scale, read back to the value.
            let maximum = Double(max(1, input.map { max($0.needsWork, $0.blocked) }.max() ?? 0))
            let step = input.count > 1 ? 560.0 / Double(input.count - 1) : 0
            for (index, pair) in coordinates.enumerated() {
                let parts = pair.split(separator: ",").compactMap { Double($0) }
                #expect(parts.count == 2)
                #expect(abs(parts[0] - (56 + Double(index) * step)) < 0.01)
                #expect(abs((272 - parts[1]) * maximum / 232 - Double(input[index][keyPath: value])) < 0.05)
            }
        }
    }

    @Test("SVG text is escaped for XML")
    func svgEscaping() throws {
        let input = [
            BurndownPoint(label: "run <1> & \"2\"", at: Date(timeIntervalSince1970: 0), needsWork: 1, blocked: 0)
        ]
        let svg = BurndownChart.svg(input, title: "A & B <C> 'D'")
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns="))
        #expect(svg.contains("A &amp; B &lt;C&gt; &#39;D&#39;"))
        let document = try XMLDocumentScan(svg)
        #expect(document.elements(named: "circle").first?.attributes["data-label"] == "run <1> & \"2\"")
        #expect(document.text(of: "title") == "A & B <C> 'D'")
    }

    @Test(
        "coordinates print with at most two decimals, whatever the locale",
        arguments: [
            (56.0, "56"), (137.333_3, "137.33"), (0.5, "0.5"), (12.005, "12.01"), (-3.25, "-3.25"), (0.07, "0.07"),
        ])
    func numbers(value: Double, text: String) {
        #expect(BurndownChart.number(value) == text)
    }
}
