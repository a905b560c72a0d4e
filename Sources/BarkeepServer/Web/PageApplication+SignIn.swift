import BarkeepCore
import BarkeepStore
import BarkeepWeb
import Foundation

/// `/signin` and `/signout` (design section 2): a person signs in with an API token typed into a form (never a
/// URL), gets a session cookie, and signs out with a CSRF-checked form.
extension PageApplication {
    /// `GET /signin`: the form, returning to the checked `next`.
    func signInForm(_ head: HTTPRequestHead) -> HTTPResponse {
        let next = head.query.first { $0.name == "next" }?.value
        return Self.html(200, SignInPage.render(next: next, assets: assets))
    }

    /// `POST /signin`: the token from the urlencoded body, checked with the token store (counted as a failed
    /// HELLO of the peer until it proves good); a session, and `303` to `next`. Failure: the form again, `401`, no
    /// detail. A token in the query string is refused (`400`) before anything is looked at.
    func signIn(
        _ head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse {
        guard head.query.isEmpty else {
            return HTTPResponse.refusal(400, "the sign-in form posts its fields in the body, never in the URL")
        }
        guard PageApplicationForm.isForm(head), let form = PageApplicationForm(body: body) else {
            return HTTPResponse.refusal(415, "the sign-in form is sent as \(PageApplicationForm.mediaType)")
        }
        let next = CSRFCheck.safeNext(form.value("next"))
        let failed = Self.html(401, SignInPage.render(next: next, isFailure: true, assets: assets))
        guard let secret = form.value("token")?.trimmingCharacters(in: .whitespacesAndNewlines), !secret.isEmpty
        else { return failed }
        if failedSignIns.admit(context.peerName) != nil { return failed }
        let found: TokenInfo?
        do {
            found = try TokenStore.authenticate(secret: secret, on: database)
        } catch {
            failedSignIns.giveBack(context.peerName)
            throw error
        }
        guard let token = found else {
            _ = failedSignIns.record(peerName: context.peerName)
            return failed
        }
        failedSignIns.giveBack(context.peerName)
        let (cookie, _) = try SessionStore.create(tokenID: token.id, lifetime: sessionLifetime, on: database)
        let seconds = Int(sessionLifetime.components.seconds)
        return Self.seeOther(
            next,
            fields: [
                HTTPField(
                    name: "Set-Cookie",
                    value: SignInCookie.setting(cookie, lifetimeSeconds: seconds, isTLS: context.isTLS))
            ])
    }

    /// `POST /signout`: ends the session (CSRF-checked) and clears the cookie; `303` to the sign-in form.
    func signOut(
        _ head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse {
        let clearing = HTTPField(name: "Set-Cookie", value: SignInCookie.clearing(isTLS: context.isTLS))
        guard let cookie = WebAuthentication.sessionCookie(head, isTLS: context.isTLS),
            let session = try SessionStore.authenticate(cookie: cookie, on: database)
        else { return Self.seeOther(PageRoutes.signIn.text, fields: [clearing]) }
        guard let form = PageApplicationForm(body: body),
            CSRFCheck.isValid(submitted: form.value(PageSecurity.csrfField), expected: session.csrfToken)
        else { return HTTPResponse.refusal(403, "this form has expired; reload the page") }
        try SessionStore.end(cookie: cookie, on: database)
        return Self.seeOther(PageRoutes.signIn.text, fields: [clearing])
    }
}
