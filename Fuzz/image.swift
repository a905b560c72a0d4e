// libFuzzer target `image`: `ImageHeader.parse` on any bytes (scripts/fuzz.sh compiles it together with the
// BarkeepCore files it uses). It must return a PNG or JPEG header whose sides are within the limit, found where the
// format puts them, or throw an `ImageProblem` with a sentence; never crash, hang or read past the bytes.

/// The fuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let header = try ImageHeader.parse(bytes)
        let sides = 1...ScreenshotLimit.maximumSide
        require(sides.contains(header.width) && sides.contains(header.height), "sides \(header.width)×\(header.height)")
        switch header.mediaType {
        case .png:
            require(bytes.count >= 24 && bytes.starts(with: ImageHeader.pngSignature), "a PNG without its signature")
        case .jpeg:
            require(bytes.starts(with: [0xFF, 0xD8]), "a JPEG without its SOI")
        }
        // The header of the same bytes with more after them is the same: only the header is read.
        require((try? ImageHeader.parse(bytes + [0, 0xFF, 0xD9])) == header, "trailing bytes changed the header")
    } catch {
        require(!error.message.isEmpty, "a problem without a sentence")
    }
    return 0
}

/// Stops the fuzzer when `condition` is false. Unlike `precondition`, which an optimized build stops without a word,
/// it says what failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
