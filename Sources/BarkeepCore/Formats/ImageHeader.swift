/// What a screenshot's first bytes say it is: a PNG or a JPEG, and its size in pixels. Read from the header alone
/// (PNG's signature and IHDR chunk; JPEG's SOI marker and its first SOF0–SOF15 frame header), without decoding a
/// pixel: Barkeep stores and serves screenshots as they are and never decodes them.
public struct ImageHeader: Sendable, Equatable {
    /// The formats a screenshot may take, as the media types it is stored and served with.
    public enum MediaType: String, Sendable, CaseIterable {
        /// A PNG image.
        case png = "image/png"
        /// A JPEG image.
        case jpeg = "image/jpeg"
    }

    /// The format.
    public var mediaType: MediaType
    /// The width in pixels (1 to `ScreenshotLimit.maximumSide`).
    public var width: Int
    /// The height in pixels (1 to `ScreenshotLimit.maximumSide`).
    public var height: Int

    /// A header of `mediaType`, `width` × `height` pixels.
    public init(mediaType: MediaType, width: Int, height: Int) {
        self.mediaType = mediaType
        self.width = width
        self.height = height
    }

    /// The eight bytes every PNG starts with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The header of `bytes`, a whole image or only its start; `ImageProblem` when they are neither a PNG nor a JPEG,
    /// when the header is cut short or malformed, or when a side is 0 or larger than `ScreenshotLimit.maximumSide`.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ImageProblem) -> ImageHeader {
        let bytes = Array(bytes.prefix(maximumHeaderBytes))
        let header: ImageHeader
        if bytes.starts(with: pngSignature) {
            header = try png(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            header = try jpeg(bytes)
        } else {
            throw ImageProblem("a screenshot must be a PNG or JPEG image")
        }
        let sides = 1...ScreenshotLimit.maximumSide
        guard sides.contains(header.width), sides.contains(header.height) else {
            throw ImageProblem(
                "a screenshot's sides must be 1 to \(ScreenshotLimit.maximumSide) pixels, "
                    + "not \(header.width) × \(header.height)")
        }
        return header
    }

    /// How far into the bytes the frame header is looked for: a JPEG's metadata segments (EXIF with its thumbnail,
    /// ICC profiles) come before it and may be long, but a frame header past this is not looked for.
    public static let maximumHeaderBytes = 1 << 20

    /// PNG: the signature, then the IHDR chunk (length 13), whose first eight bytes are the width and the height.
    private static func png(_ bytes: [UInt8]) throws(ImageProblem) -> ImageHeader {
        guard bytes.count >= 24 else { throw ImageProblem("the PNG image ends inside its header") }
        guard bigEndian(bytes, at: 8, count: 4) == 13, bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else {
            throw ImageProblem("the PNG image does not start with its IHDR chunk")
        }
        return ImageHeader(
            mediaType: .png, width: bigEndian(bytes, at: 16, count: 4), height: bigEndian(bytes, at: 20, count: 4))
    }

    /// JPEG: SOI, then marker segments up to the first frame header (SOF0–SOF15 but DHT C4, JPG C8 and DAC CC), whose
    /// payload is precision (1 byte), height and width (2 bytes each).
    private static func jpeg(_ bytes: [UInt8]) throws(ImageProblem) -> ImageHeader {
        var index = 2
        while true {
            guard index + 1 < bytes.count else { throw ImageProblem("the JPEG image ends before its frame header") }
            guard bytes[index] == 0xFF else { throw ImageProblem("the JPEG image has a malformed marker") }
            let marker = bytes[index + 1]
            switch marker {
            case 0xFF:
                // Fill bytes before a marker.
                index += 1
                continue
            case 0x01, 0xD0...0xD7:
                // Markers without a payload.
                index += 2
                continue
            case 0xD8, 0xD9, 0xDA, 0x00:
                throw ImageProblem("the JPEG image has no frame header before its data")
            default:
                break
            }
            guard index + 3 < bytes.count else { throw ImageProblem("the JPEG image ends inside a marker") }
            let length = bigEndian(bytes, at: index + 2, count: 2)
            guard length >= 2 else { throw ImageProblem("the JPEG image has a malformed marker") }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7, index + 8 < bytes.count else {
                    throw ImageProblem("the JPEG image ends inside its frame header")
                }
                return ImageHeader(
                    mediaType: .jpeg, width: bigEndian(bytes, at: index + 7, count: 2),
                    height: bigEndian(bytes, at: index + 5, count: 2))
            }
            index += 2 + length
        }
    }

    /// The unsigned big-endian integer of `count` bytes at `offset`.
    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
