import BarkeepCore

/// Uploads: the bytes connections hold together (at most `maximumPayloadTotal`), and stalled uploads dropped.
extension EventLoop {
    /// The connection's upload no longer counts against the total: its command finished, or it closed.
    func releaseUpload(_ connection: Connection) {
        uploadBytesHeld -= connection.machine.releaseUpload()
    }

    /// Milliseconds until the earliest upload in progress stalls; nil when none is in progress.
    func millisecondsToNextUploadDeadline() -> Int32? {
        guard !uploading.isEmpty else { return nil }
        var earliest: ContinuousClock.Instant?
        for id in uploading {
            guard let deadline = connections[id]?.machine.uploadDeadline else { continue }
            earliest = earliest.map { min($0, deadline) } ?? deadline
        }
        guard let earliest else { return nil }
        let wait = max(.zero, earliest - .now)
        return Int32(
            clamping: wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// Refuses and closes the uploads that sent nothing for the upload timeout: a stalled writer must not hold its
    /// buffered bytes for ever.
    func expireStalledUploads() {
        let now = ContinuousClock.now
        for id in uploading {
            guard let connection = connections[id] else {
                uploading.remove(id)
                continue
            }
            guard connection.machine.expireUpload(now: now) else { continue }
            uploading.remove(id)
            server.logger.warning("dropping a stalled upload", ["peer": connection.session.peerName])
            releaseUpload(connection)
            flush(connection)
        }
    }
}
