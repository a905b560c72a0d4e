import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `/proc/PID/stat` says about a live process: its command name, its parent and when it started. The start
/// time tells a process from a later one that was given the same pid, so a mark naming pid and start time
/// (`mark`) names one process for good.
public struct ProcessRecord: Sendable, Equatable, CustomStringConvertible {
    /// The process id.
    public let pid: Int32
    /// The command name the kernel keeps (at most 15 bytes: `barkeepd`, `postgres`).
    public let name: String
    /// The parent's pid (1, or the nearest subreaper, once the parent died).
    public let parent: Int32
    /// When it started, in clock ticks since the machine booted.
    public let startTime: UInt64

    /// The live process `pid`; nil when there is none, it is a zombie, or /proc cannot be read.
    public init?(pid: Int32) {
        guard pid > 0, let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // `pid (name) state ppid …`: the name may hold spaces and parentheses, so it ends at the last `)`.
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Fields from the state on: state is field 3, ppid 4, starttime 22.
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X", let parent = Int32(fields[1]),
            let startTime = UInt64(fields[19])
        else { return nil }
        self.pid = pid
        name = String(text[text.index(after: open)..<close])
        self.parent = parent
        self.startTime = startTime
    }

    /// This process.
    public static var current: ProcessRecord? { ProcessRecord(pid: getpid()) }

    /// `PID-STARTTIME`: the mark a cluster's postmaster carries of the process that started it (PostgresCluster).
    public var mark: String { "\(pid)-\(startTime)" }

    /// The live process `mark` names: the same pid, started at the same time; nil when it has gone.
    public init?(mark: String) {
        let parts = mark.split(separator: "-")
        guard parts.count == 2, let pid = Int32(parts[0]), let startTime = UInt64(parts[1]),
            let record = ProcessRecord(pid: pid), record.startTime == startTime
        else { return nil }
        self = record
    }

    /// `barkeepd pid 123`: how a message names it.
    public var description: String { "\(name) pid \(pid)" }
}
