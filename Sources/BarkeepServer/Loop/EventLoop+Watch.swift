import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// WATCH delivery: each watcher's progress is its machine's `WatchMachine`; the loop fetches the pages it asks for
/// (`Action.requestEvents`, from the `WatchHub`), routes live events to the watchers of their project, ends the
/// streams that lose their token or project, and drops the watchers that fall behind (`Action.abandon`).
extension EventLoop {
    /// A page of stored events for one watcher, in order; `isComplete` when it reached the newest.
    func deliverPage(to id: ConnectionID, events: [Event], isComplete: Bool) {
        guard let connection = connections[id], connection.machine.isWatching else { return }
        connection.machine.receiveEvents(events, isComplete: isComplete)
        process(connection)
    }

    /// Newly committed events, in order: each goes to the live watchers of its project. A revoked token ends the
    /// streams it opened; a deleted project ends its watchers' streams after its last event.
    func deliverLive(_ events: [Event]) {
        var touched: Set<ConnectionID> = []
        var ended: [ConnectionID: Reply] = [:]
        for event in events {
            if event.kind == EventKind.tokenRevoked.rawValue {
                // The event's subject is the revoked API token's name.
                for ids in watchers.values {
                    for id in ids where connections[id]?.session.actor == "token:" + event.subject {
                        ended[id] = .error(.noAuth, "the token of this connection was revoked")
                    }
                }
                continue
            }
            let ids: Set<ConnectionID>
            if let projectID = event.projectID {
                ids = watchers[projectID] ?? []
            } else if event.kind == EventKind.projectDeleted.rawValue, let name = event.project {
                // The project's row is gone, so the event names it only: find its watchers by name.
                ids = Set(watchers.values.joined().filter { connections[$0]?.machine.watch?.project == name })
            } else {
                continue
            }
            for id in ids {
                guard let connection = connections[id], connection.machine.receiveLiveEvent(event) else { continue }
                touched.insert(id)
                // A stream ends with its project's deletion, whether its filter wants the event or not.
                if event.kind == EventKind.projectDeleted.rawValue, let watch = connection.machine.watch {
                    ended[id] = .error(.notFound, "project '\(watch.project)' was deleted")
                }
            }
        }
        for id in touched where ended[id] == nil {
            if let connection = connections[id] { process(connection) }
        }
        for (id, reply) in ended {
            guard let connection = connections[id] else { continue }
            connection.machine.endStream(reply)
            flush(connection)
        }
    }

    /// Drops a watcher that fell behind: what the socket takes now goes out (ending with where to resume), then it
    /// closes.
    func abandon(_ connection: Connection) {
        if let watch = connection.machine.watch {
            server.logger.warning(
                "disconnecting a watcher that does not read",
                ["peer": connection.session.peerName, "project": watch.project, "last_seq": "\(watch.lastSent)"]
            )
        }
        flush(connection)
        close(connection)
    }
}
