/// The number a connection is known by on the event loop: its key in the poller (handed back with each readiness
/// event), in the loop's tables, and in the work the pool and the event dispatcher post back to the loop. Not an API
/// token: those are `TokenStore`'s.
struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    /// The poller key.
    let rawValue: UInt64

    /// The ID of poller key `rawValue`.
    init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// The ID after this one.
    var next: ConnectionID { ConnectionID(rawValue + 1) }

    var description: String { String(rawValue) }
}
