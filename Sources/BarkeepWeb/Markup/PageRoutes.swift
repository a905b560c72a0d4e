import BarkeepAPI

/// The dashboard's URLs, one home: a page's URL is the API's path without `/api/v1` (design section 4).
public enum PageRoutes {
    /// The project list: `/`.
    public static let projects = PageURL([])

    /// The sign-in form and its POST.
    public static let signIn = PageURL(["signin"])

    /// Sign-out (POST, CSRF-checked).
    public static let signOut = PageURL(["signout"])

    /// A project's overview.
    public static func project(_ project: String) -> PageURL { PageURL(["projects", project]) }

    /// A screen's page.
    public static func screen(_ project: String, _ key: String) -> PageURL {
        PageURL(["projects", project, "screens", key])
    }

    /// The findings page with `filters` in the query (a link is a saved view), from finding `after` on.
    public static func findings(_ project: String, filters: FindingFilters = FindingFilters(), after: Int? = nil)
        -> PageURL
    {
        var query = filters.keywords.map { PageURL.QueryItem($0.key, $0.value) }
        if let after { query.append(PageURL.QueryItem("after", String(after))) }
        return PageURL(["projects", project, "findings"], query: query)
    }

    /// One finding's page.
    public static func finding(_ project: String, _ number: Int) -> PageURL {
        PageURL(["projects", project, "findings", String(number)])
    }

    /// The bulk verdict form's POST (FINDING SET `where=yes`).
    public static func findingsStatus(_ project: String) -> PageURL {
        PageURL(["projects", project, "findings", "status"])
    }

    /// A screen's step form's POST (STEP SET).
    public static func steps(_ project: String) -> PageURL { PageURL(["projects", project, "steps"]) }

    /// A finding's comment form's POST.
    public static func findingComments(_ project: String, _ number: Int) -> PageURL {
        PageURL(["projects", project, "findings", String(number), "comments"])
    }

    /// The pose matrix.
    public static func poses(_ project: String) -> PageURL { PageURL(["projects", project, "poses"]) }

    /// The readiness report.
    public static func report(_ project: String) -> PageURL { PageURL(["projects", project, "report"]) }

    /// The project's live event stream (SSE), which `main[data-live]` names.
    public static func eventStream(_ project: String) -> PageURL {
        PageURL(["api", "v1", "projects", project, "events", "stream"])
    }

    /// An uploaded screenshot, by the hex SHA-256 of its bytes.
    public static func screenshot(sha256: String) -> PageURL { PageURL(["api", "v1", "screenshots", sha256]) }

    /// A static asset by its content-hashed name.
    public static func asset(_ name: String) -> PageURL { PageURL(["static", name]) }
}
