import BarkeepCore
import BarkeepProtocol
import BarkeepStore

extension CommandTable {
    /// The command table as one connection's session sees it: what its connection machine resolves requests with.
    struct SessionView: ConnectionCommands {
        /// The server's commands.
        let table: CommandTable
        /// Who is on the other end: the role requests are checked against.
        var session: Session
        /// The largest upload one request may announce.
        let maximumPayload: Int
        /// The largest screenshot one request may announce (`SCREENSHOT PUT`).
        var maximumScreenshot = ScreenshotLimit.defaultBytes
        /// The daemon's presence on its database: in sole mode, a kept reply holds for its line until a write of this
        /// daemon finishes or sole mode ends (`keptStamp`).
        var presence: Presence?

        /// WATCH streams carry the stored events.
        typealias Event = BarkeepStore.Event

        func constantReply(for line: ArraySlice<UInt8>) -> [UInt8]? {
            table.constantReply(for: line)
        }

        func mayKeepReply(_ resolved: Resolved) -> Bool {
            resolved.command.keepsReplies
        }

        func keptStamp() -> KeptStamp? {
            guard let presence else { return nil }
            let epoch = presence.epoch
            guard Presence.isSole(epoch) else { return nil }
            return KeptStamp(epoch: epoch, generation: presence.generation)
        }

        func resolve(_ request: consuming Request) -> RequestResolution<Resolved> {
            let resolution = table.resolve(
                request, session: session, maximumPayload: maximumPayload, maximumScreenshot: maximumScreenshot)
            return switch consume resolution {
            case .success(let resolved):
                .accepted(resolved, payloadSize: resolved.payloadSize)
            case .failure(let refusal):
                .refused(
                    refusal.reply, payloadToDiscard: refusal.payloadToDiscard,
                    closesConnection: refusal.closesConnection)
            }
        }
    }
}
