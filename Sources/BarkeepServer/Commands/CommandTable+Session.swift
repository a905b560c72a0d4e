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

        /// WATCH streams carry the stored events.
        typealias Event = BarkeepStore.Event

        func constantReply(for line: ArraySlice<UInt8>) -> [UInt8]? {
            table.constantReply(for: line)
        }

        func resolve(_ request: Request) -> RequestResolution<Resolved> {
            switch table.resolve(
                request, session: session, maximumPayload: maximumPayload, maximumScreenshot: maximumScreenshot)
            {
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
