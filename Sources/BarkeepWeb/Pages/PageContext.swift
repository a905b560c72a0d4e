import BarkeepCore

/// What every page knows besides its data: who is signed in with which role, the session's CSRF token, the
/// project, the page's own URL (its filters), the static assets' names, and whether the whole document or only
/// `<main>` (a live refetch, `X-Barkeep-Part: main`) is wanted.
public struct PageContext: Sendable {
    /// Which part of a page to render.
    public enum Part: Sendable, Equatable {
        /// The whole document.
        case document
        /// Only `<main>…</main>`, for the page's script to swap in.
        case main
    }

    /// The signed-in person's token name.
    public var signedInName: String
    /// Their role: writers see the triage forms.
    public var role: Role
    /// The session's CSRF token, carried by every write form and `<meta name=csrf-token>`.
    public var csrfToken: String
    /// The project of the page; nil on the project list.
    public var project: String?
    /// The page's own URL, with its query.
    public var url: PageURL
    /// The static assets.
    public var assets: StaticAssets
    /// The part wanted.
    public var part: Part

    /// A context.
    public init(
        signedInName: String, role: Role, csrfToken: String, project: String?, url: PageURL, assets: StaticAssets,
        part: Part = .document
    ) {
        self.signedInName = signedInName
        self.role = role
        self.csrfToken = csrfToken
        self.project = project
        self.url = url
        self.assets = assets
        self.part = part
    }

    /// Whether the person may triage (writer or admin).
    public var canWrite: Bool { role >= .writer }
}
