import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// SCREENSHOT PUT and GET: screenshots uploaded for pose results to name.
enum ScreenshotCommands {
    static let all: [Command] = [put, get]

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

    /// `SCREENSHOT GET sha256:HEX` (ScreenshotGetRequest): the stored bytes in base64 with their header's fields, on a
    /// database thread; `NOTFOUND` when none is stored under that hash, `TOOLONG` past `ScreenshotLimit.inlineBytes`.
    static let get = Command(ScreenshotGetRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            guard let hash = PoseRecording.uploadedScreenshotHash(request.screenshot) else {
                throw CommandError(.badArgument, ScreenshotGetRequest.badName)
            }
            let size = try ScreenshotStore.size(hash, on: connection)
            if let size, size > ScreenshotLimit.inlineBytes {
                throw CommandError(
                    .tooLong,
                    "the screenshot is \(size) bytes; SCREENSHOT GET answers at most \(ScreenshotLimit.inlineBytes)"
                        + " (the HTTP API serves any)")
            }
            guard size != nil, let found = try ScreenshotStore.fetch(hash, on: connection) else {
                throw StoreError.notFound("no screenshot is stored under \(request.screenshot)")
            }
            let header = try ImageHeader.parse(found.bytes)
            return CommandResult(
                ScreenshotGetRequest.Reply(
                    ScreenshotContent(
                        sha256: hash, header: header, size: found.bytes.count,
                        base64: Data(found.bytes).base64EncodedString())),
                version: version)
        }
    }
}
