import BarkeepAPI
import BarkeepCore
import BarkeepReport
import Foundation

/// Pieces several pages share: results as glyph and word (never colour alone), times as `<time datetime>` in UTC,
/// tables in a labelled scrolling region with sortable headers, severity and status words.
enum PageParts {
    /// A pose cell's result as glyph + word and the class that colours it.
    static func poseResult(_ cell: PoseCellResult) -> (glyph: String, word: String, style: String) {
        switch cell.result {
        case .passed: ("✓", "passed", "ok")
        case .failed: ("✗", "failed", "bad")
        case .notRun: ("–", "not run", "warn")
        case .notApplicable: ("∅", "n/a", "na")
        case nil: ("·", "no result", "na")
        }
    }

    /// A checklist step's state as glyph + word and its class.
    static func stepState(_ state: StepState) -> (glyph: String, word: String, style: String) {
        switch state {
        case .done: ("✓", "done", "ok")
        case .todo: ("○", "to do", "warn")
        case .notApplicable: ("∅", "n/a", "na")
        }
    }

    /// `<span class>glyph word</span>`.
    static func mark(_ mark: (glyph: String, word: String, style: String)) -> HTML {
        .element("span", [.class(mark.style)], text: mark.glyph + " " + mark.word)
    }

    /// A severity as its word, classed for colour (the word carries the meaning).
    static func severity(_ word: String) -> HTML {
        .element("span", [.class("sev-" + (Severity(rawValue: word)?.rawValue ?? "info"))], text: word)
    }

    /// A finding status as its word, with a glyph for those that no longer need work.
    static func status(_ status: FindingStatus) -> HTML {
        let mark = status.needsWork ? "○ " : "✓ "
        return .element("span", [.class(status.needsWork ? "warn" : "ok")], text: mark + status.rawValue)
    }

    /// The database's time text as `<time datetime="…Z">2026-12-04 16:05 UTC</time>` (the script shows it in the
    /// viewer's zone); text that is not a time is shown as it is.
    static func time(_ text: String?) -> HTML {
        guard let text, !text.isEmpty else { return .text("—") }
        guard let date = ReportTime.parse(text) ?? Timestamp.date(text, .postgres) else { return .text(text) }
        return time(date)
    }

    /// `date` as `<time datetime>` in UTC.
    static func time(_ date: Date) -> HTML {
        let parts = Timestamp.fields(of: date)
        let pad = Timestamp.pad
        let iso =
            "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):"
            + "\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
        return .element("time", [HTMLAttribute("datetime", iso)], text: ReportTime.minute(date))
    }

    /// A table in a horizontally scrolling region labelled by its caption: `id`, `caption`, the header cells
    /// (`sortable` ones get a button and `aria-sort`), the rows.
    static func table(
        id: StaticString, caption: String, headers: [Header], rows: [HTML], sortable: Bool = false
    ) -> HTML {
        let captionID = id.description + "-caption"
        let headerCells: [HTML] = headers.map { header in
            var attributes: [HTMLAttribute] = [HTMLAttribute("scope", "col")]
            if header.isNumeric { attributes.append(.class("num")) }
            guard sortable else { return .element("th", attributes, text: header.title) }
            attributes += [HTMLAttribute("aria-sort", "none"), HTMLAttribute("data-key", header.key)]
            return .element(
                "th", attributes, [.element("button", [HTMLAttribute("type", "button")], text: header.title)])
        }
        var tableAttributes: [HTMLAttribute] = [.id(id)]
        if sortable { tableAttributes.append(.class("sortable")) }
        return .element(
            "div",
            [
                .class("scroll"), HTMLAttribute("role", "region"), HTMLAttribute("aria-labelledby", captionID),
                HTMLAttribute("tabindex", "0"),
            ],
            [
                .element(
                    "table", tableAttributes,
                    [
                        .element("caption", [HTMLAttribute("id", captionID)], text: caption),
                        .element("thead", [], [.element("tr", [], headerCells)]),
                        .element("tbody", [], rows),
                    ])
            ])
    }

    /// A column of a table.
    struct Header {
        /// Its title.
        var title: String
        /// The key the sort writes in the URL.
        var key: String
        /// Numbers, right-aligned.
        var isNumeric = false
    }

    /// `<td>` with a text.
    static func cell(_ text: String?) -> HTML { .element("td", [], text: text ?? "—") }

    /// A numeric `<td>`.
    static func cell(number: Int) -> HTML { .element("td", [.class("num")], [.number(number)]) }

    /// A section with an `h2` title.
    static func section(_ title: String, _ content: [HTML]) -> HTML {
        .element("section", [], [.element("h2", text: title)] + content)
    }

    /// A paragraph.
    static func paragraph(_ text: String) -> HTML { .element("p", [], text: text) }

    /// A labelled control in a form: `<label>Title <control></label>`.
    static func labelled(_ title: String, _ control: HTML) -> HTML {
        .element("label", [], [.text(title), control])
    }

    /// The screenshot image of a pose result uploaded by content hash (`sha256:HEX`); nil for none or for an old
    /// text path (shown as "not uploaded" by the caller).
    static func screenshotHash(_ result: PoseResultRecord) -> String? {
        result.screenshot.flatMap(PoseRecording.uploadedScreenshotHash)
    }

    /// `<img class="screenshot">` of an uploaded screenshot, lazily loaded.
    static func screenshot(hash: String, alt: String) -> HTML {
        .element(
            "img",
            [
                .class("screenshot"), .src(PageRoutes.screenshot(sha256: hash)), HTMLAttribute("alt", alt),
                HTMLAttribute("loading", "lazy"),
            ])
    }

    /// A compact count of needing-work findings by severity: `2 critical, 1 high`, or `none`.
    static func severityCounts(_ counts: SeverityCounts) -> String {
        counts.total == 0 ? "none" : counts.text
    }
}
