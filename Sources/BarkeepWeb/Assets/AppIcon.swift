/// The dashboard's icon: two vertical bars on the product's blue, as an SVG the browser shows in its tab. Drawn by
/// hand, with no outside reference, so it is served like the stylesheet under its content hash.
enum AppIcon {
    /// The SVG's text.
    static let text = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">\
        <rect x="1" y="1" width="30" height="30" rx="7" fill="#0b57b0"/>\
        <rect x="8" y="7" width="5" height="18" rx="2.5" fill="#ffffff"/>\
        <rect x="19" y="7" width="5" height="18" rx="2.5" fill="#ffffff"/>\
        </svg>

        """
}
