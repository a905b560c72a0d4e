import BarkeepCore
import BarkeepProtocol

/// `SCREENSHOT GET sha256:HEX`: an uploaded screenshot's bytes (base64) with its format and size, for a client
/// that embeds it (the readiness report's HTML). The name is the one a pose result holds.
public struct ScreenshotGetRequest: CommandRequest {
    /// `OK sha256=HEX media-type=T width=W height=H size=BYTES data=BASE64`.
    public typealias Reply = OKReply<ScreenshotContent>
    /// The screenshot, as a pose names it: `sha256:` and 64 lowercase hex digits.
    public var screenshot = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// The screenshot a pose result names as `screenshot` (`sha256:HEX`).
    public init(screenshot: String) { self.screenshot = screenshot }

    /// The command.
    public static let spec = CommandSpec(
        "SCREENSHOT GET", role: .reader, effect: .read,
        summary: "An uploaded screenshot's bytes (base64), format and size.",
        http: .none(reason: "the API serves the image itself, with its content type, at GET screenshots/{sha256}"))
    /// Its argument.
    public static let fields: [Field<ScreenshotGetRequest>] = [
        .argument("screenshot", \.screenshot, "The screenshot as a pose result names it: sha256:HEX.")
    ]

    /// What SCREENSHOT GET answers a name that is not `sha256:` and 64 lowercase hex digits.
    public static let badName = "a screenshot is named sha256: and 64 lowercase hex digits, as a pose result holds it"
}

/// SCREENSHOT GET's `OK` fields.
public struct ScreenshotContent: WireFields, Equatable {
    /// The lowercase hex SHA-256 of the bytes.
    public var sha256 = ""
    /// The format.
    public var mediaType = ImageHeader.MediaType.png
    /// The width in pixels.
    public var width = 0
    /// The height in pixels.
    public var height = 0
    /// The number of bytes.
    public var size = 0
    /// The bytes, base64 (RFC 4648, with padding).
    public var data = ""

    /// An empty value, filled by decoding.
    public init() {}
    /// The content of the screenshot stored under `sha256`: its header's fields and its bytes in `base64`.
    public init(sha256: String, header: ImageHeader, size: Int, base64: String) {
        self.sha256 = sha256
        mediaType = header.mediaType
        width = header.width
        height = header.height
        self.size = size
        data = base64
    }

    /// The fields, in wire order.
    public static let fields: [Field<ScreenshotContent>] = [
        Field("sha256", \.sha256, "The SHA-256 of the bytes, lowercase hex."),
        Field("media-type", \.mediaType, "The format."),
        Field("width", \.width, "The width in pixels."),
        Field("height", \.height, "The height in pixels."),
        Field("size", \.size, "The number of bytes."),
        Field("data", \.data, "The bytes, base64 with padding."),
    ]
}
