/// Deadlines: each connection's machine says when it next has to act (`nextDeadline`: a TLS handshake's end, an
/// upload's stall); the loop keeps one timer per connection in `deadlines` and hands the machine the time when it
/// fires (`expire(now:)`). A machine's deadline only moves later, so a timer that fires early is set again for the
/// new one. The listeners' resumption is a timer of the same queue.
extension EventLoop {
    /// Sets a timer for the connection's next deadline, unless one at or before it is set already (it will fire and
    /// set the next).
    func armDeadline(_ connection: Connection) {
        arm(at: connection.machine.nextDeadline, for: connection.id, armed: &connection.armedDeadline)
    }

    /// Sets a timer at `at` for connection `id`, unless `armed` (its current timer) is at or before it; the new one
    /// becomes `armed`, and an earlier-set later one is stale when it fires.
    func arm(at: ContinuousClock.Instant?, for id: ConnectionID, armed: inout DeadlineQueue.Entry?) {
        guard let at else { return }
        if let armed, armed.at <= at { return }
        deadlineGeneration += 1
        let entry = DeadlineQueue.Entry(at: at, key: id.rawValue, generation: deadlineGeneration)
        armed = entry
        deadlines.insert(entry)
    }

    /// Fires the timers that are due: the machines act on what expired (a handshake closes silently, a stalled
    /// upload is answered and closes), and the listeners resume.
    func fireDeadlines() {
        let now = ContinuousClock.now
        while let entry = deadlines.popFirst(dueBy: now) {
            guard entry.key != Self.resumeKey else {
                if let resume = resumeListenersAt, now >= resume { resumeListeners() }
                continue
            }
            if let connection = httpConnections[ConnectionID(entry.key)] {
                fire(entry, for: connection, now: now)
                continue
            }
            // A timer of a closed connection, or one set again since, is stale.
            guard let connection = connections[ConnectionID(entry.key)], connection.armedDeadline == entry else {
                continue
            }
            connection.armedDeadline = nil
            if connection.machine.expire(now: now) {
                if !connection.machine.isHandshaking {
                    // A stalled writer must not hold its buffered bytes for ever.
                    server.logger.warning("dropping a stalled upload", ["peer": connection.session.peerName])
                    releaseUpload(connection)
                }
                process(connection, now: now)
            }
            if connections[connection.id] != nil { armDeadline(connection) }
        }
    }
}
