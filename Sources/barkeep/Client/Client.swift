import BarkeepAPI
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A whole reply as the CLI reads it.
struct Response {
    /// The records before the final line.
    var records: [Record]
    /// The text after `OK`.
    var text: String
    /// The `key=value` fields of that text.
    var fields: [String: String]
}

/// A blocking connection to barkeepd: one request out, its whole reply back.
final class Client {
    let address: ServerAddress
    private let descriptor: Int32
    /// The TLS session over a TCP connection made with `--tls` or `--ca`; nil: plain text.
    private let tls: ClientTLS?
    private var framer = LineFramer(maximumLineLength: 16 << 20)
    /// Whether any byte came from the server yet: a plain connection it closes before saying anything may be
    /// one to a port that requires TLS.
    private var hasReceived = false
    /// The server's reply to `HELLO` (its protocol version, the role, the upload limit); nil before it.
    var greeting: Greeting?

    /// Connects, waiting at most `timeout` for the connection and for each reply. With `tls`, a TCP connection
    /// runs the TLS handshake and verifies the server's certificate before anything else (a Unix socket stays
    /// plain).
    init(address: ServerAddress, timeout: Duration = .seconds(30), tls options: ClientTLS.Options? = nil)
        throws(CLIError)
    {
        self.address = address
        switch address {
        case .unix(let path):
            descriptor = try Self.connectUnix(path, address: address, timeout: timeout)
            tls = nil
        case .tcp(let host, let port):
            let descriptor = try Self.connectTCP(host, port, address: address, timeout: timeout)
            do {
                tls = try options.map { options throws(CLIError) in
                    try ClientTLS.connect(descriptor: descriptor, address: address, options: options, timeout: timeout)
                }
            } catch {
                close(descriptor)
                throw error
            }
            self.descriptor = descriptor
        }
    }

    /// A stream socket whose connect, sends and receives give up after `timeout` (Linux applies the send timeout
    /// to connect).
    private static func makeSocket(family: Int32, timeout: Duration) -> Int32 {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return descriptor }
        var interval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    deinit {
        tls?.shutdown()
        close(descriptor)
    }

    /// Sends `request` and reads its whole reply: its records, with every counter a compact reply left out put back
    /// (`CompactRecords`), and the text after `OK`. An `ERR` reply throws `CLIError.server`.
    func send(_ request: Request) throws(CLIError) -> Response {
        try write(request.line + "\n")
        var response = try readReply()
        response.records = CompactRecords.expanded(response.records, verb: request.verb)
        return response
    }

    /// Sends a typed request and reads its reply into the request's typed reply: the CLI's one decoding layer (no
    /// reply field is read by key outside it). The protocol version is the one the server said it speaks.
    func send<R: CommandRequest>(_ request: R) throws(CLIError) -> R.Reply {
        try typedReply(send(request.wireRequest), of: R.self)
    }

    /// A response read into `R`'s typed reply.
    private func typedReply<R: CommandRequest>(_ response: Response, of type: R.Type) throws(CLIError) -> R.Reply {
        let version = greeting?.protocolVersion ?? ProtocolVersion.assumed
        do {
            try R.Reply.check(finalText: response.text, command: R.spec.name)
            return try R.Reply(
                records: response.records, final: response.fields, version: version, command: R.spec.name)
        } catch {
            throw .badReply(error.description)
        }
    }

    /// Uploads `payload` with a typed request (an upload's spec, INGEST), as `upload(_:payload:progress:)` does,
    /// and reads the reply into the request's typed reply.
    func upload<R: CommandRequest>(
        _ request: R,
        payload: [UInt8],
        progress: (Int) -> Void = { _ in }
    ) throws(CLIError) -> R.Reply {
        try typedReply(upload(request.wireRequest, payload: payload, progress: progress), of: R.self)
    }

    /// Sends a request whose line ends with the payload's size, then the payload in 1 MiB pieces (calling
    /// `progress` with the bytes sent so far), and reads the reply.
    func upload(
        _ request: Request,
        payload: [UInt8],
        progress: (Int) -> Void = { _ in }
    ) throws(CLIError) -> Response {
        var request = request
        request.arguments.append(String(payload.count))
        try write(request.line + "\n")
        var sent = 0
        while sent < payload.count {
            let end = min(sent + (1 << 20), payload.count)
            try write(payload[sent..<end])
            sent = end
            progress(sent)
        }
        return try readReply()
    }

    /// Waits up to `timeout` for each reply from now on (long-running commands such as a large ingest).
    func setReplyTimeout(_ timeout: Duration) {
        var interval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads one whole reply: record lines up to the final line.
    func readReply() throws(CLIError) -> Response {
        var records: [Record] = []
        while true {
            let line = try readLine()
            if line.hasPrefix("*") {
                do {
                    records.append(try Record(parsing: line))
                } catch {
                    throw .badReply(error.description)
                }
                continue
            }
            let final: FinalLine
            do {
                final = try FinalLine(parsing: line)
            } catch {
                throw .badReply(error.description)
            }
            switch final {
            case .ok(let text): return Response(records: records, text: text, fields: final.fields)
            case .error(let code, let message): throw .server(code, message)
            }
        }
    }

    /// For a stream that may be quiet for hours (WATCH): no reply timeout any more; TCP keepalives notice a dead
    /// peer instead (a daemon that stops or crashes closes the connection, which ends the stream at once).
    func startStreaming() {
        var none = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        guard case .tcp = address else { return }
        var one: Int32 = 1
        var idle: Int32 = 30
        var interval: Int32 = 10
        var count: Int32 = 3
        let size = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(descriptor, SOL_SOCKET, SO_KEEPALIVE, &one, size)
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, size)
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, size)
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_KEEPCNT, &count, size)
    }

    /// Reads the next line the server sends (a WATCH stream's event records).
    func nextLine() throws(CLIError) -> String { try readLine() }

    /// The next line the server sends if one arrives within `timeout`, else nil: lets a stream's reader act when
    /// the server has been quiet for a while.
    func nextLine(within timeout: Duration) throws(CLIError) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                if let line = try framer.nextLine() { return line }
            } catch {
                throw .badReply(error.description)
            }
            // Bytes OpenSSL already took from the socket: the socket will not say they are there.
            if let tls, tls.hasPending { return try readLine() }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(
                &entry, 1,
                Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            if ready < 0 && errno != EINTR { throw .connectionLost(address, String(cString: strerror(errno))) }
            if ready > 0 { return try readLine() }
        }
    }

    private func write(_ text: String) throws(CLIError) { try write(Array(text.utf8)[...]) }

    private func write(_ slice: ArraySlice<UInt8>) throws(CLIError) {
        if let tls {
            switch tls.write(slice) {
            case .done: return
            case .timedOut: throw .connectionLost(address, "the server did not take the request in time")
            case .closed: throw .connectionLost(address, "the server closed the connection")
            case .failed(let reason): throw .connectionLost(address, reason)
            }
        }
        var bytes = slice
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw .connectionLost(address, String(cString: strerror(errno)))
            }
            bytes = bytes.dropFirst(sent)
        }
    }

    private func readLine() throws(CLIError) -> String {
        // A reply line may be long (a record holding a snippet); 16 MiB bounds a broken server.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                if let line = try framer.nextLine() { return line }
            } catch {
                throw .badReply(error.description)
            }
            guard let count = try receive(into: &buffer) else { continue }
            guard count > 0 else {
                if !hasReceived, tls == nil, case .tcp = address {
                    throw .connectionLost(
                        address, "the server closed the connection (if it requires TLS, pass --tls or --ca FILE)")
                }
                throw .connectionLost(address, "the server closed the connection")
            }
            hasReceived = true
            framer.append(buffer[0..<count])
        }
    }

    /// Reads what the server sent into `buffer`: the byte count, 0 at the end of the stream, nil when interrupted
    /// by a signal (try again).
    private func receive(into buffer: inout [UInt8]) throws(CLIError) -> Int? {
        if let tls {
            switch tls.read(into: &buffer) {
            case .done(let count): return count
            case .closed: return 0
            case .timedOut: throw .connectionLost(address, "no reply in time")
            case .failed(let reason): throw .connectionLost(address, reason)
            }
        }
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EINTR { return nil }
            let reason = errno == EAGAIN ? "no reply in time" : String(cString: strerror(errno))
            throw .connectionLost(address, reason)
        }
        return count
    }

    private static func connectUnix(
        _ path: String,
        address: ServerAddress,
        timeout: Duration
    ) throws(CLIError) -> Int32 {
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: socketAddress.sun_path) else {
            throw .cannotConnect(address, "the socket path is too long")
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let descriptor = makeSocket(family: AF_UNIX, timeout: timeout)
        guard descriptor >= 0 else { throw .cannotConnect(address, String(cString: strerror(errno))) }
        let status = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotConnect(address, reason)
        }
        return descriptor
    }

    private static func connectTCP(
        _ host: String,
        _ port: UInt16,
        address: ServerAddress,
        timeout: Duration
    ) throws(CLIError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0 else { throw .cannotConnect(address, String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(results) }
        var reason = "no address"
        var candidate = results
        while let info = candidate {
            let descriptor = makeSocket(family: info.pointee.ai_family, timeout: timeout)
            if descriptor >= 0 {
                if connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return descriptor
                }
                reason = String(cString: strerror(errno))
                close(descriptor)
            }
            candidate = info.pointee.ai_next
        }
        throw .cannotConnect(address, reason)
    }
}
