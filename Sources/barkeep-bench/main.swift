// barkeep-bench: a load client for `make bench`. It opens many connections to a line-protocol server, has each
// pipeline a batch of PINGs, and reports replies per second; the same client measures barkeepd and redis-server
// (which answers the inline `PING` the same way), so the two rates compare like for like on a noisy machine.
//
// Usage: barkeep-bench --target NAME=HOST:PORT [--target …] [--connections 1000] [--pipeline 100] [--rounds 7]
//                      [--request LINE]   (default PING; each must be answered with exactly one line)
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
    var rounds = 7
    var request = "PING"
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("barkeep-bench: \(message)\n".utf8))
    exit(64)
}

func parseSettings() -> Settings {
    var settings = Settings()
    var arguments = CommandLine.arguments.dropFirst()[...]
    while let flag = arguments.popFirst() {
        guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
        switch flag {
        case "--target":
            let parts = value.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let colon = parts[1].lastIndex(of: ":"),
                let port = UInt16(parts[1][parts[1].index(after: colon)...])
            else { fail("--target takes NAME=HOST:PORT") }
            settings.targets.append(Target(name: String(parts[0]), host: String(parts[1][..<colon]), port: port))
        case "--connections": settings.connections = Int(value) ?? 0
        case "--pipeline": settings.pipeline = Int(value) ?? 0
        case "--rounds": settings.rounds = Int(value) ?? 0
        case "--request": settings.request = value
        default: fail("unknown option \(flag)")
        }
    }
    guard !settings.targets.isEmpty, settings.connections > 0, settings.pipeline > 0, settings.rounds > 0 else {
        fail("usage: barkeep-bench --target NAME=HOST:PORT … [--connections N] [--pipeline N] [--rounds N]")
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

/// One round: every connection writes its batch at once, then the round lasts until every reply has arrived.
/// Returns the elapsed seconds.
func round(_ descriptors: [Int32], pipeline: Int, request: String) -> Double {
    let batch = [UInt8](String(repeating: request + "\r\n", count: pipeline).utf8)
    let poller = barkeep_poller_create()
    defer { close(poller) }
    var remaining = [Int](repeating: pipeline, count: descriptors.count)
    var done = 0
    let started = ContinuousClock.now
    for (index, descriptor) in descriptors.enumerated() {
        var offset = 0
        while offset < batch.count {
            let sent = batch[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                fail("send failed: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
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
                if remaining[index] == 0 {
                    done += 1
                    _ = barkeep_poller_remove(poller, descriptors[index])
                    break
                }
            }
        }
    }
    let elapsed = ContinuousClock.now - started
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

let settings = parseSettings()
_ = barkeep_raise_file_limit()
signal(SIGPIPE, SIG_IGN)
var medians: [String: Double] = [:]
print(
    "request=\(settings.request) connections=\(settings.connections) pipeline=\(settings.pipeline) "
        + "rounds=\(settings.rounds)"
)
// Rounds alternate between targets, so that a burst of load from something else on the machine hits both alike.
var connections: [String: [Int32]] = [:]
for target in settings.targets { connections[target.name] = connectAll(target, count: settings.connections) }
var rates: [String: [Double]] = [:]
// A warm-up round per target, not counted.
for target in settings.targets {
    _ = round(connections[target.name] ?? [], pipeline: settings.pipeline, request: settings.request)
}
for _ in 0..<settings.rounds {
    for target in settings.targets {
        let seconds = round(connections[target.name] ?? [], pipeline: settings.pipeline, request: settings.request)
        rates[target.name, default: []].append(Double(settings.connections * settings.pipeline) / seconds)
    }
}
for target in settings.targets {
    let sorted = (rates[target.name] ?? []).sorted()
    let median = sorted[sorted.count / 2]
    medians[target.name] = median
    let spread = "min \(Int(sorted.first ?? 0)) max \(Int(sorted.last ?? 0))"
    print("\(target.name): median \(Int(median)) requests/s (\(spread))")
}
if settings.targets.count == 2 {
    let first = settings.targets[0].name
    let second = settings.targets[1].name
    let ratio = (medians[first] ?? 0) / max(medians[second] ?? 1, 1)
    print(String(format: "ratio %@/%@: %.2f", first, second, ratio))
}
for descriptors in connections.values { descriptors.forEach { close($0) } }
