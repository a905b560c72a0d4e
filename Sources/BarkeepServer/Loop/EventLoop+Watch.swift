import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// WATCH delivery: each watcher's progress is its machine's `WatchMachine`; the loop fetches the pages it asks for
/// (`Action.requestEvents`, from the `WatchHub`), routes live events to the watchers of their project, ends the
/// streams that lose their token or project, and drops the watchers that fall behind (`Action.abandon`). An HTTP
/// event stream (`HTTPMachine.State.eventStream`) is a watcher too, in the same index: the same pages, live events,
/// ends and backlog bound, written as Server-Sent Events.
extension EventLoop {
    /// A page of stored events for one watcher, in order; `isComplete` when it reached the newest.
    func deliverPage(to id: ConnectionID, events: [Event], isComplete: Bool) {
        if let stream = httpConnections[id] {
            guard stream.machine.isStreaming else { return }
            stream.machine.receivePage(events, isComplete: isComplete, now: .now)
            process(stream)
            return
        }
        guard let connection = connections[id], connection.machine.isWatching else { return }
        connection.machine.receiveEvents(events, isComplete: isComplete)
        process(connection)
    }

    /// Newly committed events, in order: each goes to the live watchers of its project. A revoked token ends the
    /// streams it opened; a deleted project ends its watchers' streams after its last event.
    func deliverLive(_ events: [Event]) {
        var touched: Set<ConnectionID> = []
        var ended: [ConnectionID: Reply] = [:]
        var endedStreams: Set<ConnectionID> = []
        let now = ContinuousClock.now
        for event in events {
            if event.kind == EventKind.tokenRevoked.rawValue {
                // The event's subject is the revoked API token's name.
                for ids in watchers.values {
                    for id in ids where connections[id]?.session.actor == "token:" + event.subject {
                        ended[id] = .error(.noAuth, "the token of this connection was revoked")
                    }
                    for id in ids where httpConnections[id]?.machine.startedStream?.tokenName == event.subject {
                        endedStreams.insert(id)
                    }
                }
                continue
            }
            let ids: Set<ConnectionID>
            if let projectID = event.projectID {
                ids = watchers[projectID] ?? []
            } else if event.kind == EventKind.projectDeleted.rawValue, let name = event.project {
                // The project's row is gone, so the event names it only: find its watchers by name.
                ids = Set(
                    watchers.values.joined().filter {
                        connections[$0]?.machine.watch?.project == name
                            || httpConnections[$0]?.machine.startedStream?.project == name
                    })
            } else {
                continue
            }
            for id in ids {
                if let stream = httpConnections[id] {
                    guard stream.machine.receiveLive(event, now: now) else { continue }
                    touched.insert(id)
                    if event.kind == EventKind.projectDeleted.rawValue { endedStreams.insert(id) }
                    continue
                }
                guard let connection = connections[id], connection.machine.receiveLiveEvent(event) else { continue }
                touched.insert(id)
                // A stream ends with its project's deletion, whether its filter wants the event or not.
                if event.kind == EventKind.projectDeleted.rawValue, let watch = connection.machine.watch {
                    ended[id] = .error(.notFound, "project '\(watch.project)' was deleted")
                }
            }
        }
        for id in touched where ended[id] == nil && !endedStreams.contains(id) {
            if let connection = connections[id] { process(connection) }
            if let stream = httpConnections[id] { process(stream) }
        }
        for id in endedStreams {
            // What is queued goes out, then the stream closes: a reconnecting client is refused by its credentials.
            guard let stream = httpConnections[id] else { continue }
            stream.machine.endStream()
            flush(stream)
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

    /// Drops an event stream that fell behind: what the socket takes now goes out, then it closes (the client
    /// reconnects with `Last-Event-ID`, losing nothing).
    func abandon(_ connection: HTTPConnection) {
        if let stream = connection.machine.startedStream {
            server.logger.warning(
                "disconnecting an event stream that does not read",
                [
                    "peer": connection.context.peerName, "project": stream.project,
                    "last_seq": "\(connection.machine.eventStream?.lastSent ?? stream.since)",
                ])
        }
        flush(connection)
        close(connection)
    }
}
