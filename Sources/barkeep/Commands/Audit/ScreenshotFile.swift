import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// The screenshot `barkeep pose record --screenshot FILE` and MCP's `record_pose` (`screenshot_path`) upload: read
/// and checked here (a regular file, a PNG or JPEG by its header) before anything is sent, then uploaded with
/// `SCREENSHOT PUT` on the connection that records the pose, which names it `sha256:HEX`.
struct ScreenshotFile: Sendable {
    /// The path as given.
    let path: String
    /// The file's bytes.
    let bytes: [UInt8]
    /// What its header says.
    let header: ImageHeader

    /// The most bytes read from a file: the daemon's largest `--max-screenshot`. The daemon refuses more than its own
    /// limit (`TOOLONG`) before reading a byte of it.
    static let maximumBytes = 1 << 30

    /// Reads `path`: what cannot be read, or is not a PNG or JPEG image, is refused with why (nothing is sent).
    init(path: String) throws(CLIError) {
        let file = try ScanFile.open(path)
        bytes = try file.read(limit: Self.maximumBytes)
        do {
            header = try ImageHeader.parse(bytes)
        } catch {
            throw .badInput("\(path) is not a screenshot: \(error.message)")
        }
        self.path = path
    }

    /// Uploads the bytes for `project` on `client` (`SCREENSHOT PUT`); returns what the daemon stored.
    func upload(project: String, on client: Client) throws(CLIError) -> ScreenshotStored {
        try client.upload(ScreenshotPutRequest(project: project), payload: bytes) { _ in }.summary
    }
}
