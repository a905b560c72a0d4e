import BarkeepCore

/// The dashboard's static files, `app.css`, `app.js` and the icon, served under content-hashed names
/// (`/static/app.<hash>.css`) so they can be cached for ever: a changed file is a new name. The hash is the SHA-256
/// of the text, by the hasher the caller hands in (BarkeepWeb links no C library, as Core's `FindingIdentity`).
public struct StaticAssets: Sendable {
    /// One served file.
    public struct Asset: Sendable {
        /// Its name under `/static/`.
        public var name: String
        /// Its `Content-Type`.
        public var contentType: String
        /// Its text.
        public var body: String
    }

    /// The stylesheet.
    public let stylesheet: Asset
    /// The script.
    public let script: Asset
    /// The icon a browser shows in its tab.
    public let icon: Asset

    /// How many hex digits of the SHA-256 a name carries.
    static let hashDigits = 16

    /// The assets, named by the SHA-256 `hasher` computes.
    public init(hasher: some IdentityHasher) {
        func name(_ text: String, _ suffix: String) -> String {
            var bytes = Array(text.utf8)
            let digest = bytes.withUnsafeMutableBytes { hasher.digest(UnsafeRawBufferPointer($0)) }
            return "app." + digest.hex.prefix(Self.hashDigits) + "." + suffix
        }
        stylesheet = Asset(
            name: name(AppStylesheet.text, "css"), contentType: "text/css; charset=utf-8", body: AppStylesheet.text)
        script = Asset(
            name: name(AppScript.text, "js"), contentType: "text/javascript; charset=utf-8", body: AppScript.text)
        icon = Asset(name: name(AppIcon.text, "svg"), contentType: "image/svg+xml", body: AppIcon.text)
    }

    /// The asset served at `/static/NAME`; nil for any other name.
    public func asset(named name: String) -> Asset? {
        [stylesheet, script, icon].first { $0.name == name }
    }

    /// The stylesheet's URL.
    public var stylesheetURL: PageURL { PageRoutes.asset(stylesheet.name) }

    /// The script's URL.
    public var scriptURL: PageURL { PageRoutes.asset(script.name) }

    /// The icon's URL (also where `/favicon.ico` redirects, for a document that names none).
    public var iconURL: PageURL { PageRoutes.asset(icon.name) }
}
