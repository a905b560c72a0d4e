import BarkeepAPI
import BarkeepProtocol
import BarkeepStore

/// SCREENSHOT PUT: screenshots uploaded for pose results to name.
enum ScreenshotCommands {
    static let all: [Command] = [put]

    /// `SCREENSHOT PUT PROJECT SIZE` (ScreenshotPutRequest) and SIZE bytes, at most `--max-screenshot` (the table
    /// refuses a larger SIZE before reading a byte): the header is checked (`BADARG` with its problem) and the bytes
    /// stored once by their SHA-256, on a database thread.
    static let put = Command(ScreenshotPutRequest.self, payloadLimit: .screenshot) { request, input in
        let bytes = input.payload ?? []
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            _ = try ProjectStore.require(request.project, on: connection)
            let stored = try ScreenshotStore.put(bytes, by: actor, on: connection)
            return CommandResult(
                ScreenshotPutRequest.Reply(
                    ScreenshotStored(sha256: stored.sha256, header: stored.header, isNew: stored.isNew)),
                version: version)
        }
    }
}
