import BarkeepCore
import BarkeepTestSupport
import Testing

/// The screenshot header reader on real images (Chromium's canvas encodings), on images with their sides written
/// over, and on garbage: each refused with a sentence, never a crash.
@Suite("ImageHeader")
struct ImageHeaderTests {
    @Test("a real PNG and a real JPEG (an ICC profile before its frame header) give their type and size")
    func realImages() throws {
        #expect(try ImageHeader.parse(SampleImages.png) == ImageHeader(mediaType: .png, width: 3, height: 2))
        #expect(try ImageHeader.parse(SampleImages.jpeg) == ImageHeader(mediaType: .jpeg, width: 3, height: 2))
        // The header alone suffices: the rest of the image is not read.
        #expect(try ImageHeader.parse(SampleImages.png.prefix(24)).width == 3)
    }

    @Test("the media types are the two the schema stores")
    func mediaTypes() {
        #expect(ImageHeader.MediaType.allCases.map(\.rawValue) == ["image/png", "image/jpeg"])
    }

    /// `SampleImages.png` with its width and height replaced.
    func png(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = SampleImages.png
        for (offset, value) in [(16, width), (20, height)] {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
        }
        return bytes
    }

    @Test("sides of 0 or past the limit are refused; the limit itself is accepted")
    func sides() throws {
        let side = UInt32(ScreenshotLimit.maximumSide)
        #expect(try ImageHeader.parse(png(width: side, height: 1)).width == ScreenshotLimit.maximumSide)
        for (width, height) in [(0, 2), (3, 0), (side + 1, 2), (3, UInt32.max)] {
            #expect(throws: ImageProblem.self) { try ImageHeader.parse(png(width: width, height: height)) }
        }
        #expect(throws: ImageProblem("a screenshot's sides must be 1 to 16384 pixels, not 16385 × 2")) {
            try ImageHeader.parse(png(width: side + 1, height: 2))
        }
    }

    @Test(
        "garbage, text, other formats and cut headers are refused with a sentence",
        arguments: [
            ([UInt8](), "a screenshot must be a PNG or JPEG image"),
            (Array("not an image".utf8), "a screenshot must be a PNG or JPEG image"),
            (Array("GIF89a\u{3}\0\u{2}\0".utf8), "a screenshot must be a PNG or JPEG image"),
            (Array(SampleImages.png.prefix(20)), "the PNG image ends inside its header"),
            (
                Array(SampleImages.png.prefix(8)) + [0, 0, 0, 13] + Array("IDAT".utf8)
                    + [UInt8](repeating: 1, count: 8),
                "the PNG image does not start with its IHDR chunk"
            ),
            ([0xFF, 0xD8], "the JPEG image ends before its frame header"),
            ([0xFF, 0xD8, 0xFF, 0xDA, 0, 2], "the JPEG image has no frame header before its data"),
            ([0xFF, 0xD8, 0x12, 0x34], "the JPEG image has a malformed marker"),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 1], "the JPEG image has a malformed marker"),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 200, 1, 2], "the JPEG image ends before its frame header"),
            ([0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0], "the JPEG image ends inside its frame header"),
            (Array(SampleImages.jpeg.prefix(23)), "the JPEG image ends inside a marker"),
            (Array(SampleImages.jpeg.prefix(300)), "the JPEG image ends before its frame header"),
        ] as [([UInt8], String)])
    func refused(bytes: [UInt8], message: String) {
        #expect(throws: ImageProblem(message)) { try ImageHeader.parse(bytes) }
    }

    @Test("a DHT segment (C4) is skipped, not read as a frame; fill bytes and SOF2 (progressive) are read")
    func markers() throws {
        // SOI, DHT of 4 bytes, fill, SOF2: precision 8, height 5, width 7.
        let bytes: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xC4, 0, 4, 9, 9, 0xFF, 0xFF, 0xC2, 0, 11, 8, 0, 5, 0, 7, 1, 1, 0x11, 0,
        ]
        #expect(try ImageHeader.parse(bytes) == ImageHeader(mediaType: .jpeg, width: 7, height: 5))
    }

    @Test("every prefix of each real image parses or is refused with a problem, never a crash")
    func prefixes() {
        for image in [SampleImages.png, SampleImages.jpeg] {
            for length in 0...image.count {
                do { _ = try ImageHeader.parse(image.prefix(length)) } catch { #expect(!error.message.isEmpty) }
            }
        }
    }
}
