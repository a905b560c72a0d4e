import Foundation
import Synchronization

/// Severity of a log line, in increasing order.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Detail for whoever is debugging.
    case debug
    /// What an operator wants to see: start, stop, readiness.
    case info
    /// Something went wrong but the daemon carries on.
    case warning
    /// Something failed.
    case error

    /// Parses `debug`, `info`, `warning` (or `warn`) and `error`.
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Formats logfmt lines (`time=… level=info msg=ready key=value`) and hands each finished line to a sink, one call
/// per line so that a sink writing once per call never interleaves lines from different threads. Core does no I/O and
/// reads no clock: the time of a line comes from the caller's `clock`, and the sink writing to standard error (with
/// the system clock) is `Logger(level:)` in BarkeepCommandLine.
///
/// Thread-safety: immutable apart from the sink, which is behind a `Mutex`; share it freely.
public final class Logger: Sendable {
    /// Lines below this level are dropped.
    public let level: LogLevel
    private let fields: [(String, String)]
    private let clock: @Sendable () -> Date
    private let sink: Mutex<@Sendable (String) -> Void>

    /// A logger writing each finished line (with its newline) to `sink`, timed by `clock`.
    public init(
        level: LogLevel,
        fields: [(String, String)] = [],
        clock: @escaping @Sendable () -> Date,
        sink: @escaping @Sendable (String) -> Void
    ) {
        self.level = level
        self.fields = fields
        self.clock = clock
        self.sink = Mutex(sink)
    }

    private init(level: LogLevel, fields: [(String, String)], sharing other: Logger) {
        self.level = level
        self.fields = fields
        self.clock = other.clock
        let write = other.sink.withLock { $0 }
        self.sink = Mutex(write)
    }

    /// A logger that adds `fields` to every line, e.g. the component name.
    public func with(_ fields: KeyValuePairs<String, String>) -> Logger {
        Logger(level: level, fields: self.fields + fields.map { ($0.key, $0.value) }, sharing: self)
    }

    /// Logs at debug level.
    public func debug(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.debug, message, fields)
    }

    /// Logs at info level.
    public func info(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.info, message, fields)
    }

    /// Logs at warning level.
    public func warning(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.warning, message, fields)
    }

    /// Logs at error level.
    public func error(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.error, message, fields)
    }

    /// Logs one line if `level` is at or above this logger's level.
    public func log(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(level, message, fieldList: fields.map { ($0.key, $0.value) })
    }

    /// Logs one line with fields built at run time, in order.
    public func log(_ level: LogLevel, _ message: String, fieldList: [(String, String)]) {
        guard level >= self.level else { return }
        var line = "time=\(Timestamp.text(clock(), fractionDigits: 3)) level=\(level) msg=\(Logfmt.quote(message))"
        for (key, value) in self.fields + fieldList {
            line += " \(key)=\(Logfmt.quote(value))"
        }
        line += "\n"
        sink.withLock { $0(line) }
    }
}

/// logfmt value quoting.
public enum Logfmt {
    /// Returns `value` as is when it is a bare word, else double-quoted with `"`, `\` and control characters
    /// escaped.
    public static func quote(_ value: String) -> String {
        let needsQuotes =
            value.isEmpty
            || value.unicodeScalars.contains { scalar in
                scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || QuotedText.isControl(scalar)
            }
        guard needsQuotes else { return value }
        // The protocol's quoting (BarkeepProtocol's Quoting) shares this skeleton but blanks the other control
        // characters; a log keeps them, readable.
        return QuotedText.quote(value) { scalar in
            scalar == "\r" ? "\\r" : String(format: "\\u%04x", scalar.value)
        }
    }
}
