import BarkeepAPI
import BarkeepProtocol
import BarkeepStore

extension EventFields {
    /// The event's record, as WATCH writes it (`Event.record`): `screens` present, maybe empty, whenever `screen` is.
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

extension Event {
    /// The event as a WATCH record: `finding` its finding's number, `screen` the screen it is about, `screens` those
    /// it counts for, comma-separated (present, maybe empty, whenever `screen` is). Its fields are the same at every
    /// protocol version.
    var record: Record { EventFields(self).record(version: ProtocolVersion.current) }
}
