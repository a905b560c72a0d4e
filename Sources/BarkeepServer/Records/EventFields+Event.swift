import BarkeepAPI
import BarkeepProtocol
import BarkeepStore

extension EventFields {
    /// The event's record, as WATCH writes it (`Event.watchLine`): `screens` present, maybe empty, whenever `screen` is.
    init(_ event: Event) {
        self.init()
        seq = Int(event.seq)
        project = event.project
        kind = event.kind
        subject = event.subject
        from = event.from
        to = event.to
        reason = event.reason
        actor = event.actor
        at = event.at.postgresText
        finding = event.findingNumber
        screen = event.screen
        screens = event.screen == nil ? nil : event.screens
    }
}

extension Event: WatchEvent {
    /// The line a watcher is sent: the event's record (`EventFields`), whose fields are the same at every protocol
    /// version.
    var watchLine: String { EventFields(self).record(version: ProtocolVersion.current).encoded }

    /// The Server-Sent Event an HTTP event stream is sent: its sequence number as the id a client resumes from, its
    /// kind as the event's name, its JSON view (`EventFields`, as `barkeep watch --json` prints it) as the data —
    /// one line, since JSON text escapes every line break.
    var streamFrame: String {
        let json: String
        do {
            json = try EventFields(self).jsonText()
        } catch {
            json = "{\"seq\":\(seq)}"
        }
        return "id: \(seq)\nevent: \(kind)\ndata: \(json)\n\n"
    }
}
