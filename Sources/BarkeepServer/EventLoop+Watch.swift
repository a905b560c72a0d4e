import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// WATCH delivery: pages of stored events for replaying watchers, live events for the caught-up ones, and the end of
/// streams that fall behind or lose their token or project.
extension EventLoop {
    /// Asks the dispatcher for the next page of stored events when a replaying watcher has room for it.
    func requestPageIfDue(_ connection: Connection) {
        guard var watch = connection.watch, watch.isReplaying, !watch.isPageRequested,
            connection.machine.pendingOutputCount < configuration.maximumWatcherBacklog / 4,
            let hub = server.hub
        else { return }
        watch.isPageRequested = true
        connection.watch = watch
        hub.requestPage(connection: connection.id, projectID: watch.projectID, after: watch.lastSent)
    }

    /// A page of stored events for one watcher, in order; `isComplete` when it reached the newest.
    func deliverPage(to id: ConnectionID, events: [Event], isComplete: Bool) {
        guard let connection = connections[id], var watch = connection.watch else { return }
        // Events the filter passes over still move the cursor on, so the next page starts after them.
        for event in events where event.seq > watch.lastSent {
            if event.matches(watch.filter) { connection.machine.enqueue(line: event.record.encoded) }
            watch.lastSent = event.seq
        }
        watch.isPageRequested = false
        watch.isReplaying = !isComplete
        connection.watch = watch
        afterEvents(connection)
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
                ids = Set(watchers.values.joined().filter { connections[$0]?.watch?.project == name })
            } else {
                continue
            }
            for id in ids {
                guard let connection = connections[id], var watch = connection.watch,
                    !watch.isReplaying, event.seq > watch.lastSent
                else { continue }
                // A stream ends with its project's deletion, whether its filter wants the event or not.
                if event.matches(watch.filter) { connection.machine.enqueue(line: event.record.encoded) }
                watch.lastSent = event.seq
                connection.watch = watch
                touched.insert(id)
                if event.kind == EventKind.projectDeleted.rawValue {
                    ended[id] = .error(.notFound, "project '\(watch.project)' was deleted")
                }
            }
        }
        for id in touched where ended[id] == nil {
            if let connection = connections[id] { afterEvents(connection) }
        }
        for (id, reply) in ended {
            guard let connection = connections[id] else { continue }
            connection.machine.enqueue(reply)
            connection.machine.end()
            flush(connection)
        }
    }

    /// Writes a watcher's new events, disconnecting it when it has fallen too far behind.
    private func afterEvents(_ connection: Connection) {
        guard let watch = connection.watch else { return }
        if connection.machine.pendingOutputCount > configuration.maximumWatcherBacklog {
            server.logger.warning(
                "disconnecting a watcher that does not read",
                ["peer": connection.session.peerName, "project": watch.project, "last_seq": "\(watch.lastSent)"]
            )
            connection.machine.enqueue(.error(.busy, "watcher fell behind; resume with since=\(watch.lastSent)"))
            flush(connection)
            close(connection)
            return
        }
        guard flush(connection) else { return }
        requestPageIfDue(connection)
    }
}
