/// What a signed-in person gets from a link followed from another site (a chat message, an email, a ticket): the
/// session cookie is `SameSite=Strict`, so the browser leaves it off such a navigation, and the page would send them
/// to sign in again. Instead this page reloads the same address at once, from this site, which the browser sends
/// the cookie with; no script, a `<meta http-equiv="refresh">` and a link. Without a session the reload goes to the
/// sign-in form as any page does.
public enum SharedLinkPage {
    /// Whether a request without a session is such a navigation: its `Sec-Fetch-Site` is `cross-site` and its
    /// `Sec-Fetch-Mode`, when sent, `navigate`. A browser that sends no fetch metadata goes to the sign-in form.
    public static func applies(fetchSite: String?, fetchMode: String?) -> Bool {
        fetchSite?.lowercased() == "cross-site" && (fetchMode.map { $0.lowercased() == "navigate" } ?? true)
    }

    /// The page reloading `target` (a path of this site, checked by `CSRFCheck.safeNext`).
    public static func render(target: String, assets: StaticAssets) -> String {
        let safe = CSRFCheck.safeNext(target)
        let refresh = HTML.element(
            "meta", [HTMLAttribute("http-equiv", "refresh"), HTMLAttribute("content", "0; url=" + safe)])
        let body = HTML.element(
            "body", [],
            [
                .element(
                    "main", [HTMLAttribute("id", "main")],
                    [
                        .element("h1", text: "Opening Barkeep"),
                        .element(
                            "p", [],
                            [.element("a", [HTMLAttribute("href", safe)], text: "Continue to the page")]),
                    ])
            ])
        return PageLayout.document(
            title: "Opening", csrfToken: nil, assets: assets, body: body, extraHead: [refresh])
    }
}
