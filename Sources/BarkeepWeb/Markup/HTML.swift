import BarkeepCore
import BarkeepReport

/// A piece of HTML, escaped by construction: text and attribute values are always escaped (Report's
/// `Escaping.html`, which also neutralises controls and bidirectional overrides), element and attribute names are
/// compile-time literals, raw markup exists only as a `StaticString` or Report's escaping burndown renderer, and
/// URLs only as `PageURL`. No runtime value can become markup.
public struct HTML: Sendable {
    /// The markup.
    public private(set) var markup: String

    private init(markup: String) { self.markup = markup }

    /// Nothing.
    public static let empty = HTML(markup: "")

    /// `value` as text, escaped.
    public static func text(_ value: String) -> HTML { HTML(markup: Escaping.html(value)) }

    /// A number as text.
    public static func number(_ value: Int) -> HTML { HTML(markup: String(value)) }

    /// Markup written in the source: a compile-time literal, never a runtime value.
    public static func literal(_ markup: StaticString) -> HTML { HTML(markup: markup.description) }

    /// The burndown chart as an inline `<svg id="burndown">`, drawn by Report's renderer (which escapes its labels).
    public static func burndown(_ points: [BurndownPoint], title: String) -> HTML {
        HTML(markup: BurndownChart.inlineSVG(points, title: title))
    }

    /// The children one after another.
    public static func group(_ children: [HTML]) -> HTML {
        HTML(markup: children.reduce(into: "") { $0 += $1.markup })
    }

    /// `<name attributes>children</name>`; a void element (`input`, `meta`, `img`, …) has no children and no end tag.
    public static func element(
        _ name: StaticString, _ attributes: [HTMLAttribute] = [], _ children: [HTML] = []
    ) -> HTML {
        let tag = name.description
        var markup = "<" + tag
        for attribute in attributes {
            markup += attribute.markup
        }
        markup += ">"
        if voidElements.contains(tag) { return HTML(markup: markup) }
        for child in children {
            markup += child.markup
        }
        return HTML(markup: markup + "</" + tag + ">")
    }

    /// `element(name, attributes, [.text(text)])`.
    public static func element(_ name: StaticString, _ attributes: [HTMLAttribute] = [], text: String) -> HTML {
        element(name, attributes, [.text(text)])
    }

    /// A whole document: the doctype, then `root` (the `html` element).
    public static func document(_ root: HTML) -> String { "<!doctype html>\n" + root.markup + "\n" }

    /// The elements HTML writes without an end tag.
    static let voidElements: Set<String> = ["br", "hr", "img", "input", "link", "meta"]
}

/// An attribute of an HTML element: a literal name and a value escaped when written. URL attributes (`href`, `src`,
/// `action`) are made only from a `PageURL`.
public struct HTMLAttribute: Sendable {
    /// ` name="value"`, escaped.
    let markup: String

    private init(markup: String) { self.markup = markup }

    /// `name="value"`, the value escaped. Not for URL attributes: use `href`, `src` or `action`.
    public init(_ name: StaticString, _ value: String) {
        markup = " " + name.description + "=\"" + Escaping.html(value) + "\""
    }

    /// A boolean attribute (`required`, `hidden`), present without a value.
    public static func flag(_ name: StaticString) -> HTMLAttribute { HTMLAttribute(markup: " " + name.description) }

    /// `href` of a link.
    public static func href(_ url: PageURL) -> HTMLAttribute { HTMLAttribute(url: url, name: "href") }

    /// `src` of an image or a script.
    public static func src(_ url: PageURL) -> HTMLAttribute { HTMLAttribute(url: url, name: "src") }

    /// `action` of a form.
    public static func action(_ url: PageURL) -> HTMLAttribute { HTMLAttribute(url: url, name: "action") }

    /// A `data-` value that is a URL (the live stream of `main`).
    public static func dataURL(_ name: StaticString, _ url: PageURL) -> HTMLAttribute {
        HTMLAttribute(url: url, name: name.description)
    }

    /// `id`.
    public static func id(_ value: StaticString) -> HTMLAttribute { HTMLAttribute("id", value.description) }

    /// `class`.
    public static func `class`(_ value: String) -> HTMLAttribute { HTMLAttribute("class", value) }

    private init(url: PageURL, name: String) {
        markup = " " + name + "=\"" + Escaping.xml(url.text) + "\""
    }
}
