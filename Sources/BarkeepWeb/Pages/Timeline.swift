import BarkeepAPI

/// A history of events (a screen's timeline, a finding's history) as an ordered list, oldest first: when, who,
/// what, from → to, why.
enum Timeline {
    /// The list of `events`; a sentence when there are none.
    static func render(_ events: [EventFields], project: String) -> HTML {
        guard !events.isEmpty else { return PageParts.paragraph("Nothing has happened yet.") }
        return .element(
            "ol", [.class("timeline")],
            events.map { event in
                var parts: [HTML] = [
                    PageParts.time(event.at), .text(" · " + event.actor + " · "), .element("strong", text: event.kind),
                ]
                if let finding = event.finding {
                    parts += [
                        .text(" "), .element("a", [.href(PageRoutes.finding(project, finding))], text: "#\(finding)"),
                    ]
                } else {
                    parts.append(.text(" " + event.subject))
                }
                if event.from != nil || event.to != nil {
                    parts.append(.text(": " + (event.from ?? "—") + " → " + (event.to ?? "—")))
                }
                if let reason = event.reason { parts.append(.element("span", [.class("meta")], text: reason)) }
                return .element("li", [HTMLAttribute("data-seq", String(event.seq))], parts)
            })
    }
}
