import Foundation

/// Small real images, as Chromium's canvas encodes a 3 × 2 red rectangle: a PNG and a JPEG (whose ICC profile, in
/// an APP2 segment, comes before its frame header). Screenshot tests upload and check these.
public enum SampleImages {
    /// A 3 × 2 PNG.
    public static let png = decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEklEQVR4AWI6w2D8H4aZGJAAAAAA//8+M+ppAAAABklEQVQDAHPBBf8P8IOjAAAAAElFTkSuQmCC"
    )

    /// A 3 × 2 JPEG.
    public static let jpeg = decode(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAA"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            + "AAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJD"
            + "AAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IA"
            + "ADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAAC"
            + "ZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIA"
            + "MAAxADb/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARES"
            + "EhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAMDASIAAhEBAxEB"
            + "/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAwb/xAAUEQEAAAAAAAAA"
            + "AAAAAAAAAAAA/9oADAMBAAIRAxEAPwCAANXP/9k=")

    /// Writes `bytes` (the PNG by default) to a new file `name` in a new temporary directory; returns its path.
    public static func temporaryFile(_ bytes: [UInt8] = png, named name: String = "shot.png") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "barkeep-shot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    private static func decode(_ base64: String) -> [UInt8] {
        // Invariant: the literals above are valid base64; an empty image would fail every test that uses it.
        Data(base64Encoded: base64).map { Array($0) } ?? []
    }
}
