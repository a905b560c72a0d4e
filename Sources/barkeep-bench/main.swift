// barkeep-bench: a load client for `make bench`. It opens many connections to a line-protocol server, has each
// send batches of requests (pipelined, or one at a time), and reports requests answered per second; the same client
// measures barkeepd and redis-server, so the two rates compare like for like on a noisy machine.
//
// Usage: barkeep-bench --target NAME=HOST:PORT [--target …] [--connections 1000] [--pipeline 100] [--batches 1]
//                      [--rounds 7] [--request LINE] [--request-for NAME=LINE] [--hello-for NAME=LINE]
//
// - `--pipeline P --batches B`: in a round each connection sends B batches of P requests, each batch once every
//   reply of the one before is in (`--pipeline 1 --batches 200`: unpipelined, one request in flight).
// - `--request LINE` (default PING) is every target's request, `--request-for NAME=LINE` one target's own (barkeepd's
//   command beside redis's `GET` of a value of the same size).
// - `--hello-for NAME=LINE`: a line each connection to NAME sends once before the rounds (`HELLO protocol=3
//   token=…`, which makes it a reader); its reply must not be an error.
// - A reply may span lines: how many each target's takes is counted once, on one connection, before the rounds.
// - With more than one batch, how evenly the server serves its clients: the share of its batches the slowest
//   connection had done when the first finished all of its own (100%: in step; a server that keeps serving some
//   connections before others ends its rounds with few connections left in flight, and a lower rate).
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Target {
    var name: String
    var host: String
    var port: UInt16
}

struct Settings {
    var targets: [Target] = []
    var connections = 1000
    var pipeline = 100
    var batches = 1
    var rounds = 7
    var request = "PING"
    var requestFor: [String: String] = [:]
    var helloFor: [String: String] = [:]

    func request(of target: Target) -> String { requestFor[target.name] ?? request }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("barkeep-bench: \(message)\n".utf8))
    exit(64)
}

/// `NAME=VALUE` split at its first `=`.
func namedValue(_ flag: String, _ value: String) -> (name: String, value: String) {
    let parts = value.split(separator: "=", maxSplits: 1)
    guard parts.count == 2 else { fail("\(flag) takes NAME=VALUE") }
    return (String(parts[0]), String(parts[1]))
}

func parseSettings() -> Settings {
    var settings = Settings()
    var arguments = CommandLine.arguments.dropFirst()[...]
    while let flag = arguments.popFirst() {
        guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
        switch flag {
        case "--target":
            let (name, address) = namedValue(flag, value)
            guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...])
            else { fail("--target takes NAME=HOST:PORT") }
            settings.targets.append(Target(name: name, host: String(address[..<colon]), port: port))
        case "--connections": settings.connections = Int(value) ?? 0
        case "--pipeline": settings.pipeline = Int(value) ?? 0
        case "--batches": settings.batches = Int(value) ?? 0
        case "--rounds": settings.rounds = Int(value) ?? 0
        case "--request": settings.request = value
        case "--request-for":
            let (name, line) = namedValue(flag, value)
            settings.requestFor[name] = line
        case "--hello-for":
            let (name, line) = namedValue(flag, value)
            settings.helloFor[name] = line
        default: fail("unknown option \(flag)")
        }
    }
    guard !settings.targets.isEmpty, settings.connections > 0, settings.pipeline > 0, settings.batches > 0,
        settings.rounds > 0
    else {
        fail(
            "usage: barkeep-bench --target NAME=HOST:PORT … [--connections N] [--pipeline N] [--batches N] "
                + "[--rounds N] [--request LINE] [--request-for NAME=LINE] [--hello-for NAME=LINE]")
    }
    let names = Set(settings.targets.map(\.name))
    for name in Set(settings.requestFor.keys).union(settings.helloFor.keys) where !names.contains(name) {
        fail("no target named \(name)")
    }
    return settings
}

func connectAll(_ target: Target, count: Int) -> [Int32] {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = target.port.bigEndian
    guard inet_pton(AF_INET, target.host, &address.sin_addr) == 1 else { fail("\(target.host): not an IPv4 address") }
    return (0..<count).map { _ in
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else { fail("cannot connect to \(target.name): \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }
}

/// Writes all of `bytes` to the non-blocking socket `descriptor`.
func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent < 0 {
            if errno == EAGAIN || errno == EINTR { continue }
            fail("send failed: \(String(cString: strerror(errno)))")
        }
        offset += sent
    }
}

/// Sends `line` once on `descriptor` and returns what comes back until the server has been silent for 200 ms.
func probe(_ descriptor: Int32, _ line: String) -> String {
    sendAll(descriptor, Array((line + "\r\n").utf8))
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while poll(&waiting, 1, received.isEmpty ? 10_000 : 200) > 0 {
        let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if read == 0 { fail("the server closed a connection") }
        if read < 0 { continue }
        received += buffer[0..<read]
    }
    guard !received.isEmpty else { fail("no reply to \(line) for 10 s") }
    return String(decoding: received, as: UTF8.self)
}

/// One round: every connection writes a batch of `pipeline` requests, and the next once the batch's replies (each
/// `replyLines` lines) are all in, `batches` times; the round lasts until every reply has arrived. Returns the
/// elapsed seconds, and the share of its batches the slowest connection had done when the first one finished.
func round(
    _ descriptors: [Int32], pipeline: Int, batches: Int, request: String, replyLines: Int
) -> (seconds: Double, slowestShare: Double) {
    let batch = [UInt8](String(repeating: request + "\r\n", count: pipeline).utf8)
    let poller = barkeep_poller_create()
    defer { close(poller) }
    // Lines still owed by each connection's batch in flight, and batches it has still to send.
    var remaining = [Int](repeating: pipeline * replyLines, count: descriptors.count)
    var batchesLeft = [Int](repeating: batches - 1, count: descriptors.count)
    var done = 0
    var slowestShare = 1.0
    let started = ContinuousClock.now
    for (index, descriptor) in descriptors.enumerated() {
        sendAll(descriptor, batch)
        _ = barkeep_poller_add(poller, descriptor, BARKEEP_EVENT_READ, UInt64(index))
    }
    var events = [barkeep_event](repeating: barkeep_event(), count: 256)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while done < descriptors.count {
        let count = events.withUnsafeMutableBufferPointer {
            barkeep_poller_wait(poller, $0.baseAddress, Int32($0.count), 10_000)
        }
        guard count > 0 else {
            if count < 0 && errno == EINTR { continue }
            fail("no reply for 10 s (\(done) of \(descriptors.count) connections done)")
        }
        for event in events.prefix(Int(count)) {
            let index = Int(event.key)
            while true {
                let read = buffer.withUnsafeMutableBytes { recv(descriptors[index], $0.baseAddress, $0.count, 0) }
                if read <= 0 {
                    if read == 0 { fail("the server closed a connection") }
                    break
                }
                for byte in buffer[0..<read] where byte == UInt8(ascii: "\n") { remaining[index] -= 1 }
                guard remaining[index] <= 0 else { continue }
                // A whole batch is in, and nothing more may come: the server answered more lines than counted.
                guard remaining[index] == 0 else { fail("more reply lines than \(replyLines) a request") }
                if batchesLeft[index] > 0 {
                    batchesLeft[index] -= 1
                    remaining[index] = pipeline * replyLines
                    sendAll(descriptors[index], batch)
                    break
                }
                if done == 0 {
                    // Batches done: all but the ones still to send, and the one in flight.
                    let slowest = batchesLeft.indices.map { batches - batchesLeft[$0] - (remaining[$0] > 0 ? 1 : 0) }
                        .min()
                    slowestShare = Double(slowest ?? batches) / Double(batches)
                }
                done += 1
                _ = barkeep_poller_remove(poller, descriptors[index])
                break
            }
        }
    }
    let elapsed = ContinuousClock.now - started
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, slowestShare)
}

let settings = parseSettings()
_ = barkeep_raise_file_limit()
signal(SIGPIPE, SIG_IGN)
print(
    "connections=\(settings.connections) pipeline=\(settings.pipeline) batches=\(settings.batches) "
        + "rounds=\(settings.rounds)"
)
// Rounds alternate between targets, so that a burst of load from something else on the machine hits both alike.
var connections: [String: [Int32]] = [:]
var replyLines: [String: Int] = [:]
for target in settings.targets {
    let descriptors = connectAll(target, count: settings.connections)
    connections[target.name] = descriptors
    if let hello = settings.helloFor[target.name] {
        // The first connection's reply is checked and its lines counted; the others send theirs together.
        let reply = probe(descriptors[0], hello)
        if reply.hasPrefix("ERR") || reply.hasPrefix("-") { fail("\(target.name) refused \(hello): \(reply)") }
        let lines = reply.utf8.count { $0 == UInt8(ascii: "\n") }
        _ = round(Array(descriptors.dropFirst()), pipeline: 1, batches: 1, request: hello, replyLines: lines)
    }
    let request = settings.request(of: target)
    let reply = probe(descriptors[0], request)
    if reply.hasPrefix("ERR") || reply.hasPrefix("-") { fail("\(target.name) refused \(request): \(reply)") }
    replyLines[target.name] = reply.utf8.count { $0 == UInt8(ascii: "\n") }
    print(
        "\(target.name): request \(request), a reply of \(reply.utf8.count) bytes, \(replyLines[target.name] ?? 0) lines"
    )
}
@MainActor func measure(_ target: Target) -> (seconds: Double, slowestShare: Double) {
    round(
        connections[target.name] ?? [], pipeline: settings.pipeline, batches: settings.batches,
        request: settings.request(of: target), replyLines: replyLines[target.name] ?? 1)
}
var rates: [String: [Double]] = [:]
var slowestShares: [String: [Double]] = [:]
// A warm-up round per target, not counted.
for target in settings.targets { _ = measure(target) }
for _ in 0..<settings.rounds {
    for target in settings.targets {
        let (seconds, slowestShare) = measure(target)
        rates[target.name, default: []].append(
            Double(settings.connections * settings.pipeline * settings.batches) / seconds)
        slowestShares[target.name, default: []].append(slowestShare)
    }
}
/// The middle of `values` once sorted (the upper one of an even count); `empty` when there are none.
func median(_ values: [Double], empty: Double = 0) -> Double {
    values.isEmpty ? empty : values.sorted()[values.count / 2]
}
var medians: [String: Double] = [:]
for target in settings.targets {
    let sorted = (rates[target.name] ?? []).sorted()
    let middle = median(sorted)
    medians[target.name] = middle
    let spread = "min \(Int(sorted.first ?? 0)) max \(Int(sorted.last ?? 0))"
    print("\(target.name): median \(Int(middle)) requests/s (\(spread))")
}
if settings.batches > 1 {
    for target in settings.targets {
        let share = median(slowestShares[target.name] ?? [], empty: 1)
        print(
            String(
                format: "%@: the slowest connection had done %.0f%% of its batches when the first finished (median)",
                target.name, share * 100))
    }
}
if settings.targets.count == 2 {
    let first = settings.targets[0].name
    let second = settings.targets[1].name
    let ratio = (medians[first] ?? 0) / max(medians[second] ?? 1, 1)
    print(String(format: "ratio %@/%@: %.2f", first, second, ratio))
}
for descriptors in connections.values { descriptors.forEach { close($0) } }
