import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The wall time `body` takes, in milliseconds.
public func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

/// The value at `fraction` (0.5: the median, 0.99: p99) of `values`, nearest rank.
public func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[max(0, min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))]
}

/// The CPU time (user and system, milliseconds) process `pid` spends while `body` runs, from /proc/PID/stat.
public func cpuMilliseconds(of pid: pid_t, _ body: () throws -> Void) throws -> Double {
    func ticks() throws -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { throw BenchError("cannot read /proc/\(pid)/stat") }
        // After the command's closing parenthesis: state is field 3, utime field 14, stime field 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("cannot parse /proc/\(pid)/stat")
        }
        return user + system
    }
    let before = try ticks()
    try body()
    return (try ticks() - before) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// A TCP port on 127.0.0.1 that nothing listens on now.
public func freePort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw BenchError("no free port") }
    return UInt16(bigEndian: address.sin_port)
}

/// A connected TCP socket to 127.0.0.1:`port`.
public func connectedSocket(port: UInt16) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard result == 0 else {
        close(descriptor)
        throw BenchError("cannot connect to 127.0.0.1:\(port)")
    }
    return descriptor
}

/// Sends all of `bytes` on `descriptor`.
public func sendAll(_ bytes: [UInt8], on descriptor: Int32) throws {
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw BenchError("send failed") }
        sent += count
    }
}

/// Appends what `descriptor` has (up to 64 KiB, waiting for some) to `buffer`.
public func receiveSome(into buffer: inout [UInt8], from descriptor: Int32) throws {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { throw BenchError("the daemon closed the connection") }
    buffer += chunk[..<count]
}
