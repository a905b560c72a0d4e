import BarkeepAPI
import BarkeepCore

/// `/projects/{p}/poses`: the pose matrix, screens × required poses (POSES); each cell the latest result as glyph
/// + word, who, when, device, and a failed cell its screenshot. A pose a screen does not require is "not
/// required".
public enum PoseMatrixPage {
    /// The matrix of POSES' `cells`; `screens` (SCREEN LIST) gives titles and the order, screens absent from it
    /// follow in the cells' order.
    public static func render(_ cells: [PoseResultRecord], screens: [ScreenRecord], context: PageContext) -> String {
        let project = context.project ?? ""
        let poses = Pose.allCases.filter { pose in cells.contains { $0.pose == pose } }
        var byScreen: [String: [Pose: PoseResultRecord]] = [:]
        var order = screens.map(\.key).filter { key in cells.contains { $0.screen == key } }
        for cell in cells {
            if byScreen[cell.screen] == nil, !order.contains(cell.screen) { order.append(cell.screen) }
            byScreen[cell.screen, default: [:]][cell.pose] = cell
        }
        let titles = Dictionary(screens.map { ($0.key, $0.title) }, uniquingKeysWith: { first, _ in first })
        let rows = order.map { key -> HTML in
            let row = byScreen[key] ?? [:]
            var header: [HTML] = [.element("a", [.href(PageRoutes.screen(project, key))], text: key)]
            if let title = titles[key] ?? nil { header.append(.element("small", [.class("meta")], text: title)) }
            let cellsHTML = poses.map { pose -> HTML in
                guard let cell = row[pose] else {
                    return .element(
                        "td", [.class("pose na"), HTMLAttribute("data-pose", pose.rawValue)], text: "— not required")
                }
                return PoseCell.render(cell)
            }
            return .element(
                "tr", [HTMLAttribute("data-screen", key)],
                [.element("th", [HTMLAttribute("scope", "row")], header)] + cellsHTML)
        }
        let content: [HTML] =
            cells.isEmpty
            ? [PageParts.paragraph("No screen requires a pose yet.")]
            : [
                legend(),
                PageParts.table(
                    id: "pose-matrix", caption: "Screens × required poses, latest result",
                    headers: [PageParts.Header(title: "Screen", key: "screen")]
                        + poses.map { PageParts.Header(title: $0.rawValue, key: $0.rawValue) },
                    rows: rows),
            ]
        return PageLayout.render(title: "Pose matrix", context: context, content: content)
    }

    private static func legend() -> HTML {
        let results = PoseResult.allCases.map { PoseCellResult($0) } + [PoseCellResult(nil)]
        return .element(
            "ul", [.class("legend"), HTMLAttribute("aria-label", "Legend")],
            results.map { .element("li", [], [PageParts.mark(PageParts.poseResult($0))]) })
    }
}
