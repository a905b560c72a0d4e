/// The checks a state-changing request from a cookie session passes before anything runs (design section 2), as
/// pure functions: the CSRF token, the `Origin`, and the `next` path of the sign-in form.
public enum CSRFCheck {
    /// Whether `submitted` (the form field `csrf` or the header `X-CSRF-Token`) equals the session's token,
    /// compared in time that depends only on the lengths, so a guess learns nothing from timing.
    public static func isValid(submitted: String?, expected: String) -> Bool {
        guard let submitted, !expected.isEmpty else { return false }
        let given = Array(submitted.utf8)
        let wanted = Array(expected.utf8)
        guard given.count == wanted.count else { return false }
        var difference: UInt8 = 0
        for index in wanted.indices {
            difference |= given[index] ^ wanted[index]
        }
        return difference == 0
    }

    /// Whether a write's `Origin` header is acceptable: absent, or the request's own origin (`scheme://host`,
    /// `host` being the `Host` header as sent). `Origin: null` is what a browser sends with a form's POST when the
    /// page's `Referrer-Policy` is `no-referrer`, as every page's is: it is accepted only when the browser also says
    /// the request comes from this very origin (`fetchSite`, the `Sec-Fetch-Site` header, which no page can set).
    public static func isSameOrigin(origin: String?, host: String, isTLS: Bool, fetchSite: String? = nil) -> Bool {
        guard let origin else { return true }
        if origin == "null" { return fetchSite?.lowercased() == "same-origin" }
        return origin.lowercased() == ((isTLS ? "https://" : "http://") + host).lowercased()
    }

    /// The path the sign-in form returns to: `next` when it is a path of this site (starts with one `/`, no
    /// backslash or control that a browser might read as another host), else `/`.
    public static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"),
            !next.unicodeScalars.contains(where: { $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F })
        else { return "/" }
        return next
    }
}
