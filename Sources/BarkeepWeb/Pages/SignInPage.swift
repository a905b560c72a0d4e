/// `/signin`: the form a person signs in with their API token (never put in a URL: the form posts it).
public enum SignInPage {
    /// What a failed sign-in says, with no detail on why.
    public static let failure = "That token is unknown or revoked."

    /// The sign-in page returning to `next` (checked by `CSRFCheck.safeNext`), showing `failure` when asked.
    public static func render(next: String?, isFailure: Bool = false, assets: StaticAssets) -> String {
        var content: [HTML] = [.element("h1", text: "Sign in to Barkeep")]
        if isFailure {
            content.append(.element("p", [.class("notice"), HTMLAttribute("role", "alert")], text: failure))
        }
        content.append(
            .element(
                "form",
                [.id("signin"), .class("stack"), HTMLAttribute("method", "post"), .action(PageRoutes.signIn)],
                [
                    .element("label", [HTMLAttribute("for", "token")], text: "API token"),
                    .element(
                        "input",
                        [
                            HTMLAttribute("type", "password"), HTMLAttribute("id", "token"),
                            HTMLAttribute("name", "token"),
                            HTMLAttribute("autocomplete", "current-password"), .flag("required"),
                        ]),
                    .element(
                        "input",
                        [
                            HTMLAttribute("type", "hidden"), HTMLAttribute("name", "next"),
                            HTMLAttribute("value", CSRFCheck.safeNext(next)),
                        ]),
                    .element("button", [HTMLAttribute("type", "submit"), .class("primary")], text: "Sign in"),
                ]))
        content.append(
            PageParts.paragraph("An admin creates tokens with barkeep token create NAME --role reader|writer|admin."))
        let body = HTML.element(
            "body", [], [.element("main", [HTMLAttribute("id", "main")], content)])
        return PageLayout.document(title: "Sign in", csrfToken: nil, assets: assets, body: body)
    }
}
