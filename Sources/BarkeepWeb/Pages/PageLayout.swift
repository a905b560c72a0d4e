import BarkeepCore

/// The frame of every signed-in page: the document head (CSRF meta, stylesheet, deferred script), the header with
/// its navigation and sign-out form, `<main data-live>` holding the page, and the `#live` status line.
public enum PageLayout {
    /// The page `title` (also its one `h1`, which `content` does not repeat) around `content`, as `context.part`
    /// asks: the whole document, or only `<main>`.
    public static func render(title: String, context: PageContext, content: [HTML]) -> String {
        var mainAttributes: [HTMLAttribute] = [HTMLAttribute("id", "main"), HTMLAttribute("tabindex", "-1")]
        if let project = context.project {
            mainAttributes.append(.dataURL("data-live", PageRoutes.eventStream(project)))
            mainAttributes.append(
                HTMLAttribute("data-events", EventKind.allCases.map(\.rawValue).joined(separator: " ")))
        }
        let main = HTML.element("main", mainAttributes, [.element("h1", text: title)] + content)
        if context.part == .main { return main.markup }
        let body = HTML.element(
            "body", [],
            [
                .element("a", [.class("skip"), .href(.fragment("main"))], text: "Skip to content"),
                header(context),
                main,
                .element(
                    "footer", [],
                    [.element("p", [HTMLAttribute("id", "live"), HTMLAttribute("aria-live", "polite")], [])]),
            ])
        return document(title: title, csrfToken: context.csrfToken, assets: context.assets, body: body)
    }

    /// A whole document around `body`; `csrfToken` nil leaves the meta out (the sign-in page has no session).
    static func document(
        title: String, csrfToken: String?, assets: StaticAssets, body: HTML, extraHead: [HTML] = []
    ) -> String {
        var head: [HTML] = [
            .element("meta", [HTMLAttribute("charset", "utf-8")]),
            .element(
                "meta",
                [HTMLAttribute("name", "viewport"), HTMLAttribute("content", "width=device-width, initial-scale=1")]),
        ]
        if let csrfToken {
            head.append(.element("meta", [HTMLAttribute("name", "csrf-token"), HTMLAttribute("content", csrfToken)]))
        }
        head +=
            [
                .element("title", text: title + " · Barkeep"),
                .element("link", [HTMLAttribute("rel", "stylesheet"), .href(assets.stylesheetURL)]),
                .element(
                    "link",
                    [HTMLAttribute("rel", "icon"), HTMLAttribute("type", "image/svg+xml"), .href(assets.iconURL)]),
                .element("script", [.flag("defer"), .src(assets.scriptURL)], []),
            ] + extraHead
        let html = HTML.element("html", [HTMLAttribute("lang", "en")], [.element("head", [], head), body])
        return HTML.document(html)
    }

    /// The header: the product, the navigation (projects; the project's pages), who is signed in and sign-out.
    static func header(_ context: PageContext) -> HTML {
        var links: [HTML] = [navItem("Projects", PageRoutes.projects, context)]
        if let project = context.project {
            links += [
                navItem(project, PageRoutes.project(project), context),
                navItem("Findings", PageRoutes.findings(project), context),
                navItem("Poses", PageRoutes.poses(project), context),
                navItem("Report", PageRoutes.report(project), context),
            ]
        }
        return .element(
            "header", [],
            [
                .element("strong", text: "Barkeep"),
                .element("nav", [HTMLAttribute("aria-label", "Main")], [.element("ul", [], links)]),
                .element(
                    "div", [.class("who")],
                    [
                        .element("span", text: "\(context.signedInName) (\(context.role.rawValue))"),
                        .element(
                            "form", [HTMLAttribute("method", "post"), .action(PageRoutes.signOut)],
                            [
                                csrfField(context),
                                .element("button", [HTMLAttribute("type", "submit")], text: "Sign out"),
                            ]),
                    ]),
            ])
    }

    private static func navItem(_ label: String, _ url: PageURL, _ context: PageContext) -> HTML {
        var attributes: [HTMLAttribute] = [.href(url)]
        if url.segments == context.url.segments { attributes.append(HTMLAttribute("aria-current", "page")) }
        return .element("li", [], [.element("a", attributes, text: label)])
    }

    /// The hidden CSRF field every write form carries.
    public static func csrfField(_ context: PageContext) -> HTML {
        .element(
            "input",
            [
                HTMLAttribute("type", "hidden"), HTMLAttribute("name", PageSecurity.csrfField),
                HTMLAttribute("value", context.csrfToken),
            ])
    }
}
