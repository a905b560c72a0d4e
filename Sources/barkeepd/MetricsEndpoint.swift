import BarkeepCore
import BarkeepServer
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `--metrics-listen HOST:PORT`: the server's counters as Prometheus text (`GET /metrics`, exposition format
/// 0.0.4) over plain HTTP/1.0, one request per connection, each connection on a thread of its own (at most
/// `maximumClients` at once). Off by default; it serves numbers only, never a token, a project or a finding, so it
/// needs no authentication — bind it to an address only the monitoring system reaches.
///
/// A client has `requestDeadline` for its whole request head, however it trickles it in (past it, `408` and
/// closed); when `maximumClients` are connected, a new client ends the one that has been sending its request the
/// longest, if for `evictionAge` at least. So clients that send a header a second cannot keep a scrape, which sends
/// its request at once, out, and a flood of new connections cannot end a scrape that got in.
///
/// Thread-safety (`@unchecked Sendable`): `descriptor` is written once before the thread starts; `isStopping` and
/// `clients` are behind a `Mutex` (a client's socket is closed, and shut down when ended by a newcomer, only under
/// it, so no other socket can be given its number meanwhile); `server` is `Sendable`.
final class MetricsEndpoint: @unchecked Sendable {
    private let server: Server
    private let logger: Logger
    private let descriptor: Int32
    private let isStopping = Mutex(false)

    /// The clients being served.
    private struct Clients {
        var nextID = 0
        /// Clients connected and not yet closed, ended ones included.
        var count = 0
        /// Those still reading their request: their socket, and since when.
        var reading: [Int: (descriptor: Int32, since: ContinuousClock.Instant)] = [:]
        /// Those a newcomer ended, until their thread closes them.
        var ended: Set<Int> = []
    }
    private let clients = Mutex(Clients())

    /// Clients served at once at most (besides those a newcomer just ended, whose threads are closing them).
    static let maximumClients = 16
    /// How long a client has to send its whole request head.
    static let requestDeadline: Duration = .seconds(5)
    /// How long a client reading its request is safe from being ended by a newcomer: a scrape sends its request
    /// within it, so a flood of new connections cannot end a scrape that got in.
    static let evictionAge: Duration = .milliseconds(250)
    /// The longest request head read, in bytes.
    static let maximumHead = 8192
    private let finished = DispatchSemaphore(value: 0)
    /// The address it listens on (the port the kernel chose, when 0 was asked for).
    let boundAddress: String

    /// Binds `host:port`; throws a message when that is not possible.
    init(host: String, port: UInt16, server: Server, logger: Logger) throws {
        self.server = server
        self.logger = logger
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        let name = host == "localhost" ? "127.0.0.1" : host
        guard getaddrinfo(name, String(port), &hints, &result) == 0, let info = result else {
            throw DaemonError.startup("--metrics-listen: \(ValueExcerpt.quoted(host)) is not an IP address")
        }
        defer { freeaddrinfo(result) }
        let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard descriptor >= 0, bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0,
            listen(descriptor, 16) == 0
        else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw DaemonError.startup("--metrics-listen: cannot listen on \(host):\(port): \(reason)")
        }
        self.descriptor = descriptor
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let boundPort = withUnsafeMutablePointer(to: &address) { pointer -> UInt16 in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
            if pointer.pointee.ss_family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
        boundAddress = name.contains(":") ? "[\(name)]:\(boundPort)" : "\(name):\(boundPort)"
    }

    /// Serves until `stop()`.
    func start() {
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "barkeep-metrics"
        thread.start()
    }

    /// Stops accepting and waits for the accepting thread; clients in progress finish on their own within
    /// `requestDeadline` and the time to write a reply.
    func stop() {
        isStopping.withLock { $0 = true }
        // Wakes the blocked accept.
        shutdown(descriptor, Int32(SHUT_RDWR))
        finished.wait()
        close(descriptor)
    }

    private func serve() {
        while !isStopping.withLock({ $0 }) {
            let client = accept(descriptor, nil, nil)
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if !isStopping.withLock({ $0 }) {
                    logger.warning("metrics accept failed", ["error": String(cString: strerror(errno))])
                    Thread.sleep(forTimeInterval: 0.1)
                }
                continue
            }
            // Each client on a thread of its own, so a slow or idle one delays nobody.
            guard let id = admit(client) else {
                close(client)
                continue
            }
            let thread = Thread { [self] in
                answer(client, id: id)
                clients.withLock { clients in
                    clients.reading[id] = nil
                    clients.ended.remove(id)
                    clients.count -= 1
                    close(client)
                }
            }
            thread.name = "barkeep-metrics-client"
            thread.start()
        }
    }

    /// Counts a new client in, ending the one reading its request the longest when `maximumClients` are connected
    /// and it has been reading for `evictionAge` at least; its id, or nil when it is to be closed unanswered (every
    /// slot is answering or was taken within `evictionAge`, or ended clients are closing).
    private func admit(_ client: Int32) -> Int? {
        clients.withLock { clients in
            if clients.count - clients.ended.count >= Self.maximumClients {
                guard clients.count < 2 * Self.maximumClients,
                    let oldest = clients.reading.min(by: { $0.value.since < $1.value.since }),
                    oldest.value.since.duration(to: .now) >= Self.evictionAge
                else { return nil }
                // Its read returns at once, and its thread closes it.
                shutdown(oldest.value.descriptor, Int32(SHUT_RDWR))
                clients.reading[oldest.key] = nil
                clients.ended.insert(oldest.key)
            }
            let id = clients.nextID
            clients.nextID += 1
            clients.count += 1
            clients.reading[id] = (client, .now)
            return id
        }
    }

    /// Reads the request head (at most `maximumHead` bytes, within `requestDeadline` in all) and writes the
    /// response: the metrics, 404 for another path, 408 for a head not complete in time.
    private func answer(_ client: Int32, id: Int) {
        let deadline = ContinuousClock.now + Self.requestDeadline
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        var isComplete = false
        while head.count < Self.maximumHead {
            // Each read waits only for what is left of the whole request's time.
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            let microseconds = max(1, Int(left.seconds * 1_000_000))
            var timeout = timeval(tv_sec: microseconds / 1_000_000, tv_usec: Int(microseconds % 1_000_000))
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            head += chunk[..<count]
            // The request line is all that matters; the head ends at the first empty line.
            let text = String(decoding: head, as: UTF8.self)
            if text.contains("\r\n\r\n") || text.contains("\n\n") {
                isComplete = true
                break
            }
        }
        // A client a newcomer ended is answered nothing: its thread closes it.
        let isEnded = clients.withLock { clients in
            clients.reading[id] = nil
            return clients.ended.contains(id)
        }
        guard !isEnded else { return }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let requestLine = String(decoding: head.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let words = requestLine.split(separator: " ")
        let response: String
        if !isComplete && head.count < Self.maximumHead {
            let body = "the request was not complete within \(Int(Self.requestDeadline.seconds)) s\n"
            response =
                "HTTP/1.0 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        } else if words.count >= 2, words[0] == "GET", words[1] == "/metrics" || words[1].hasPrefix("/metrics?") {
            let body = Self.exposition(server)
            response =
                "HTTP/1.0 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        } else {
            let body = "Barkeep serves its metrics at /metrics\n"
            response =
                "HTTP/1.0 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        }
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// The metrics in Prometheus' text format.
    static func exposition(_ server: Server) -> String {
        let statistics = server.statistics
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ value: Int) {
            lines += ["# HELP \(name) \(help)", "# TYPE \(name) \(type)", "\(name) \(value)"]
        }
        lines += [
            "# HELP barkeep_build_info The daemon's version and its identity in this run.",
            "# TYPE barkeep_build_info gauge",
            "barkeep_build_info{version=\"\(BarkeepVersion.current)\",server=\"\(server.serverID)\"} 1",
        ]
        metric("barkeep_uptime_seconds", "gauge", "Seconds since the daemon started.", Int(server.uptime.seconds))
        metric("barkeep_connections", "gauge", "Client connections open now.", statistics.connections)
        metric("barkeep_connections_accepted_total", "counter", "Client connections accepted.", statistics.accepted)
        metric("barkeep_commands_total", "counter", "Requests answered.", statistics.commandsServed)
        metric("barkeep_watchers", "gauge", "Connections streaming events (WATCH).", statistics.watchers)
        metric("barkeep_http_connections", "gauge", "HTTP connections open now.", statistics.httpConnections)
        metric(
            "barkeep_pages_shared_total", "counter", "Overview parts served from a kept rendering.",
            server.pagesShared)
        metric(
            "barkeep_peak_pending_output_bytes", "gauge", "The most reply bytes ever waiting for one client.",
            statistics.peakPendingOutput)
        if let pool = server.poolUsage {
            metric("barkeep_pool_size", "gauge", "Database connections of the pool.", pool.size)
            metric("barkeep_pool_busy", "gauge", "Pool workers running a command now.", pool.busy)
            metric("barkeep_pool_queued", "gauge", "Commands waiting for a pool worker.", pool.queued)
            metric(
                "barkeep_pool_rejected_total", "counter", "Commands refused with BUSY because the queue was full.",
                pool.rejected)
        }
        if let replica = server.replicaUsage {
            metric(
                "barkeep_replica_serving", "gauge", "1 while reads go to the read replica, 0 while it lags or is down.",
                replica.condition == .serving ? 1 : 0)
            metric(
                "barkeep_replica_lag_milliseconds", "gauge", "The read replica's lag when last measured.",
                Int(replica.lag.milliseconds))
            metric("barkeep_replica_reads_total", "counter", "Reads the read replica served.", replica.replicaReads)
            metric(
                "barkeep_primary_reads_total", "counter", "Reads the primary served while a replica was configured.",
                replica.primaryReads)
            metric(
                "barkeep_replica_fallbacks_total", "counter",
                "Reads sent to the read replica that the primary served after all.", replica.fallbacks)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
