import BarkeepAPI

/// One cell of the pose matrix (`td.pose[data-pose=P1]`): the result as glyph + word, who, when, device; a failed
/// cell with an uploaded screenshot shows it and links to it, an old text path says "not uploaded".
enum PoseCell {
    /// The cell of `result`.
    static func render(_ result: PoseResultRecord) -> HTML {
        let mark = PageParts.poseResult(result.result)
        var content: [HTML] = [PageParts.mark(mark)]
        var meta: [HTML] = []
        if let actor = result.actor { meta.append(.text(actor + " ")) }
        if let recorded = result.recorded { meta.append(PageParts.time(recorded)) }
        if let device = result.device { meta.append(.text(" on " + device)) }
        if !meta.isEmpty { content.append(.element("small", [], meta)) }
        if let hash = PageParts.screenshotHash(result) {
            let alt = "Screenshot of \(result.screen) in \(result.pose.rawValue), \(mark.word)"
            content.append(
                .element(
                    "a", [.href(PageRoutes.screenshot(sha256: hash)), .class("screenshot-link")],
                    [PageParts.screenshot(hash: hash, alt: alt)]))
        } else if let path = result.screenshot {
            content.append(.element("small", [], text: "screenshot not uploaded: " + path))
        }
        if let reason = result.reason { content.append(.element("small", [], text: reason)) }
        return .element(
            "td",
            [
                .class("pose " + mark.style), HTMLAttribute("data-pose", result.pose.rawValue),
                HTMLAttribute("data-result", result.result.wire),
            ],
            content)
    }
}
