import BarkeepCore
import BarkeepProtocol

/// `SCREENSHOT PUT PROJECT SIZE` and SIZE bytes of a PNG or JPEG image: stores a screenshot once by its content hash,
/// for a pose result to name as `screenshot=sha256:HEX`. SIZE is at most the daemon's `--max-screenshot`.
public struct ScreenshotPutRequest: CommandRequest {
    /// `OK sha256=HEX width=W height=H media-type=T new=yes|no`.
    public typealias Reply = OKReply<ScreenshotStored>
    /// The project whose poses it shows.
    public var project = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// An upload for `project`.
    public init(project: String) { self.project = project }

    /// The command.
    public static let spec = CommandSpec(
        "SCREENSHOT PUT", role: .writer, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Upload a screenshot (PNG or JPEG) once by its content hash, for a pose result to name.",
        http: .upload("projects/{project}/screenshots", contentTypes: ImageHeader.MediaType.allCases.map(\.rawValue)),
        payload: true)
    /// Its argument (the upload's size, last, is the table's).
    public static let fields: [Field<ScreenshotPutRequest>] = [
        .argument("project", \.project, "The project.", names: .project)
    ]
}

/// SCREENSHOT PUT's `OK` fields: the screenshot's hash and what its header said.
public struct ScreenshotStored: WireFields, Equatable {
    /// The lowercase hex SHA-256 of the bytes, which a pose names as `screenshot=sha256:HEX`.
    public var sha256 = ""
    /// The width in pixels.
    public var width = 0
    /// The height in pixels.
    public var height = 0
    /// The format.
    public var mediaType = ImageHeader.MediaType.png
    /// yes when this upload stored it, no when the same bytes were stored already.
    public var isNew = false

    /// An empty value, filled by decoding.
    public init() {}
    /// The fields of a screenshot stored under `sha256` with `header`.
    public init(sha256: String, header: ImageHeader, isNew: Bool) {
        self.sha256 = sha256
        width = header.width
        height = header.height
        mediaType = header.mediaType
        self.isNew = isNew
    }

    /// The value a pose's `screenshot=` takes to name it.
    public var reference: String { PoseRecording.uploadedScreenshot(sha256) }

    /// The fields, in wire order.
    public static let fields: [Field<ScreenshotStored>] = [
        Field("sha256", \.sha256, "The SHA-256 of the bytes, lowercase hex: a pose names it as screenshot=sha256:HEX."),
        Field("width", \.width, "The width in pixels."),
        Field("height", \.height, "The height in pixels."),
        Field("media-type", \.mediaType, "The format."),
        Field("new", \.isNew, "yes when this upload stored it, no when the same bytes were stored already."),
    ]
}

extension ImageHeader.MediaType: WireEnum {}
