import BarkeepCore

/// Uploads: the bytes connections hold together (at most `maximumPayloadTotal`); a stall is a machine's deadline
/// (`+Deadlines`).
extension EventLoop {
    /// The connection's upload no longer counts against the total: its command finished, or it closed.
    func releaseUpload(_ connection: Connection) {
        uploadBytesHeld -= connection.machine.releaseUpload()
    }
}
