import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Accepting, and what the loop does when descriptors run short: spare descriptors, refusals, paused listeners.
extension EventLoop {
    /// Accepts every connection waiting on listener `index`: admitted, or refused `BUSY` when full or short of
    /// descriptors.
    func accept(from index: Int) {
        let listener = listeners[index]
        while true {
            var descriptor = barkeep_accept(listener.descriptor)
            var onSpare = false
            if descriptor < 0 && (errno == EMFILE || errno == ENFILE), let spare = spareDescriptors.popLast() {
                // Out of descriptors: a spare's slot takes the waiting connection.
                _ = Glibc.close(spare)
                descriptor = barkeep_accept(listener.descriptor)
                onSpare = true
            }
            guard descriptor >= 0 else {
                let code = errno
                if onSpare { refillSpares() }
                if code == EMFILE || code == ENFILE {
                    // No spare, or another thread took its slot: accepting would fail again at once, so the
                    // listener rests until a connection closes or for a moment.
                    pause(index, reason: "out of file descriptors")
                } else if code != EAGAIN && code != EWOULDBLOCK && code != EINTR {
                    server.logger.warning("accept failed", ["error": errorText(code)])
                }
                return
            }
            if listener.kind == .http {
                // HTTP has its own budget: a flood of it never takes the line protocol's slots.
                if onSpare || httpConnections.count >= configuration.maximumHTTPConnections {
                    refuse(
                        descriptor, on: listener, onSpare ? "out of file descriptors" : "too many HTTP connections",
                        keepingAsSpare: onSpare)
                } else {
                    admitHTTP(descriptor)
                }
                continue
            }
            // Who is on a Unix socket is known at once (peer credentials): the daemon's owner may use the reserve
            // beyond the limit, which every other client (TCP, or another user on the socket) shares.
            var uid: uid_t?
            if listener.isUnix {
                var peer: uid_t = 0
                var pid: pid_t = 0
                if barkeep_peer_credentials(descriptor, &peer, &pid) == 0 { uid = peer }
            }
            let isOwner = uid.map(configuration.isOwner(uid:)) ?? false
            let total = configuration.maximumConnections + ServerConfiguration.ownerReserve
            let isFull =
                connections.count >= total || (!isOwner && ordinaryConnections >= configuration.maximumConnections)
            if onSpare && !(isOwner && !spareDescriptors.isEmpty) {
                refuse(descriptor, on: listener, "out of file descriptors", keepingAsSpare: true)
                continue
            }
            if isFull {
                refuse(descriptor, on: listener, "too many connections", keepingAsSpare: false)
                continue
            }
            admit(descriptor, on: listener, uid: uid, isOwner: isOwner)
        }
    }

    /// Serves a connection just accepted on `listener`, from `uid` on a Unix socket (nil: TCP, or credentials that
    /// could not be read).
    private func admit(_ descriptor: Int32, on listener: Listener, uid: uid_t?, isOwner: Bool) {
        var session: Session
        if listener.isUnix {
            if let uid {
                // The daemon's owner is admin without a token.
                session = Session(
                    isLocal: true,
                    uid: uid,
                    peerName: "unix:uid=\(uid)",
                    role: isOwner ? .admin : nil,
                    actor: "local:" + userName(uid)
                )
            } else {
                session = Session(isLocal: true, uid: nil, peerName: "unix", role: nil, actor: "anonymous")
            }
        } else {
            session = Session(
                isLocal: false, uid: nil, peerName: peerName(descriptor), role: nil, actor: "anonymous")
        }
        var transport = Transport.plain(descriptor)
        var handshakeDeadline: ContinuousClock.Instant?
        if !listener.isUnix {
            guard let tcp = tcpTransport(descriptor, peer: session.peerName) else { return }
            (transport, handshakeDeadline) = tcp
        }
        let id = nextConnectionID
        nextConnectionID = id.next
        let machine = ConnectionMachine(
            commands: CommandTable.SessionView(
                table: commands, session: session, maximumPayload: configuration.maximumPayload,
                maximumScreenshot: configuration.maximumScreenshot, presence: server.presence),
            limits: limits,
            now: .now,
            handshakeDeadline: handshakeDeadline
        )
        let connection = Connection(
            descriptor: descriptor, id: id, machine: machine, interest: BARKEEP_EVENT_READ, transport: transport)
        connection.isOwner = isOwner
        connections[id] = connection
        armDeadline(connection)
        if !isOwner { ordinaryConnections += 1 }
        _ = barkeep_poller_add(server.poller, descriptor, BARKEEP_EVENT_READ, id.rawValue)
        server.updateStatistics {
            $0.connections += 1
            $0.accepted += 1
        }
    }

    /// Answers a connection `ERR BUSY` (HTTP: `503` with `Retry-After: 1`) and closes it; `keepingAsSpare`: its slot
    /// becomes a spare descriptor. An HTTP client of a TLS listener gets no answer (it would not be readable before a
    /// handshake): it sees the connection end.
    private func refuse(_ descriptor: Int32, on listener: Listener, _ reason: String, keepingAsSpare: Bool) {
        var bytes: [UInt8] = []
        if listener.kind == .http {
            if tlsContext == nil { bytes = HTTPResponse.busyConnectionBytes }
        } else {
            Reply.error(.busy, reason + "; retry later").encode(into: &bytes)
        }
        _ = bytes.withUnsafeBytes { barkeep_send(descriptor, $0.baseAddress, $0.count) }
        if keepingAsSpare && barkeep_replace_descriptor(nullDescriptor, descriptor) >= 0 {
            spareDescriptors.append(descriptor)
        } else {
            _ = Glibc.close(descriptor)
        }
        shedCount += 1
        // At most one line a second: a flood of refusals must not become a flood of logs.
        if ContinuousClock.now - lastShedLog >= .seconds(1) {
            server.logger.warning(
                "refusing connections: \(reason)",
                ["listener": "\(listener.address)", "refused": String(shedCount)]
            )
            lastShedLog = .now
            shedCount = 0
        }
    }

    /// Leaves listener `index` out of the poller until a connection closes, or for a quarter of a second.
    private func pause(_ index: Int, reason: String) {
        guard pausedListeners.insert(index).inserted else { return }
        _ = barkeep_poller_remove(server.poller, listeners[index].descriptor)
        if resumeListenersAt == nil { scheduleResume(at: .now + .milliseconds(250)) }
        if ContinuousClock.now - lastShedLog >= .seconds(1) {
            server.logger.warning(
                "not accepting for now: \(reason)", ["listener": "\(listeners[index].address)"])
            lastShedLog = .now
        }
    }

    /// Polls the paused listeners again at `instant`, or earlier if already due earlier.
    func scheduleResume(at instant: ContinuousClock.Instant) {
        resumeListenersAt = instant
        deadlineGeneration += 1
        deadlines.insert(DeadlineQueue.Entry(at: instant, key: Self.resumeKey, generation: deadlineGeneration))
    }

    /// Takes spares back and polls the paused listeners again.
    func resumeListeners() {
        resumeListenersAt = nil
        guard !isDraining else { return }
        refillSpares()
        for index in pausedListeners {
            _ = barkeep_poller_add(
                server.poller, listeners[index].descriptor, BARKEEP_EVENT_READ, UInt64(index + 1))
        }
        pausedListeners.removeAll()
    }

    /// Duplicates /dev/null until there are `spareCount` spares, or descriptors run out.
    func refillSpares() {
        guard nullDescriptor >= 0 else { return }
        while spareDescriptors.count < Self.spareCount {
            let spare = fcntl(nullDescriptor, F_DUPFD_CLOEXEC, 0)
            guard spare >= 0 else { return }
            spareDescriptors.append(spare)
        }
    }

    /// The address of a TCP peer, for the log ("tcp" when it cannot be read).
    func peerName(_ descriptor: Int32) -> String {
        var name = [CChar](repeating: 0, count: 64)
        guard barkeep_peer_name(descriptor, &name, Int32(name.count)) == 0 else { return "tcp" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid\(uid)" }
        return String(cString: name)
    }
}
