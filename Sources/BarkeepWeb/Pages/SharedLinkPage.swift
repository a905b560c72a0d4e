/// What a signed-in person gets from a link followed from another site (a chat message, an email, a ticket): the
/// session cookie is `SameSite=Strict`, so the browser leaves it off such a navigation, and the page would send them
/// to sign in again. Instead this page reloads the same address at once, from this site, which the browser sends
/// the cookie with; no script, a refresh `meta` element and a link. Without a session the reload goes to the
/// sign-in form as any page does.
public enum SharedLinkPage {
    /// Whether a request without a session is such a navigation: its `Sec-Fetch-Site` is `cross-site` and its
    /// `Sec-Fetch-Mode`, when sent, `navigate`. A browser that sends no fetch metadata goes to the sign-in form.
    public static func applies(fetchSite: String?, fetchMode: String?) -> Bool {
        fetchSite?.lowercased() == "cross-site" && (fetchMode.map { $0.lowercased() == "navigate" } ?? true)
    }

    /// The page reloading `target`, the address asked for, re-encoded as a path of this site (an empty segment is
    /// dropped, so it never starts `//`, another host).
    public static func render(target: PageURL, assets: StaticAssets) -> String {
        let safe = PageURL(target.segments.filter { !$0.isEmpty }, query: target.query)
        let refresh = HTML.element(
            "meta", [HTMLAttribute("http-equiv", "refresh"), HTMLAttribute("content", "0; url=" + safe.text)])
        let body = HTML.element(
            "body", [],
            [
                .element(
                    "main", [HTMLAttribute("id", "main")],
                    [
                        .element("h1", text: "Opening Barkeep"),
                        .element(
                            "p", [],
                            [.element("a", [.href(safe)], text: "Continue to the page")]),
                    ])
            ])
        return PageLayout.document(
            title: "Opening", csrfToken: nil, assets: assets, body: body, extraHead: [refresh])
    }
}
