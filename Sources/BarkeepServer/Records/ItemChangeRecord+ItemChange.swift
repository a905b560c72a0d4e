import BarkeepAPI
import BarkeepCore
import BarkeepStore

extension ItemChangeRecord {
    /// The `item` record of a change.
    init(_ change: ItemChange) {
        self.init()
        id = change.number
        title = change.title
        screen = change.screen ?? AuditArea.unmapped
        from = change.from
        to = change.to
        reason = change.reason
        gate = change.gate
    }
}
