import BarkeepAPI

/// A failed pose's screenshot embedded in the HTML report as a `data:` URI, so the file a team mails around shows
/// it with nothing to fetch.
public struct EmbeddedScreenshot: Sendable, Equatable {
    /// Its `Content-Type` (`image/png` or `image/jpeg`).
    public var mediaType: String
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// The bytes, base64.
    public var base64: String

    /// A screenshot as SCREENSHOT GET answered it.
    public init(_ content: ScreenshotContent) {
        mediaType = content.mediaType.rawValue
        width = content.width
        height = content.height
        base64 = content.data
    }

    /// The `data:` URI of the image.
    var dataURI: String { "data:\(mediaType);base64,\(base64)" }
}
