import BarkeepCore
import Foundation
import Synchronization
import Testing

/// A sink that keeps every line it is handed, in order.
private final class LineCollector: Sendable {
    private let storage = Mutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    func makeLogger(level: LogLevel, fields: [(String, String)] = [], clock: Date? = nil) -> Logger {
        Logger(level: level, fields: fields, clock: { clock ?? Date() }) { line in
            self.storage.withLock { $0.append(line) }
        }
    }
}

@Suite("Logger")
struct LoggerTests {
    // MARK: - LogLevel

    @Test(
        "level names parse case-insensitively, warn included",
        arguments: [
            ("debug", LogLevel.debug), ("info", .info), ("warning", .warning), ("warn", .warning), ("error", .error),
            ("DEBUG", .debug), ("Info", .info), ("WARN", .warning), ("Error", .error),
        ]
    )
    func levelNames(name: String, level: LogLevel) {
        #expect(LogLevel(name: name) == level)
    }

    @Test("unknown level names are refused", arguments: ["", "trace", "fatal", "warnings", "err", " info", "info "])
    func unknownLevelNames(name: String) {
        #expect(LogLevel(name: name) == nil)
    }

    @Test("levels run debug < info < warning < error and print their name")
    func levelOrder() {
        #expect(LogLevel.allCases == [.debug, .info, .warning, .error])
        #expect(LogLevel.allCases.sorted() == LogLevel.allCases)
        #expect(LogLevel.debug < .info && LogLevel.info < .warning && LogLevel.warning < .error)
        #expect(LogLevel.allCases.map(\.description) == ["debug", "info", "warning", "error"])
        for level in LogLevel.allCases { #expect(LogLevel(name: level.description) == level) }
    }

    // MARK: - Filtering

    @Test(
        "lines below the logger's level are dropped",
        arguments: [
            (LogLevel.debug, ["debug", "info", "warning", "error"]),
            (.info, ["info", "warning", "error"]),
            (.warning, ["warning", "error"]),
            (.error, ["error"]),
        ]
    )
    func levelFiltering(level: LogLevel, written: [String]) {
        let collector = LineCollector()
        let logger = collector.makeLogger(level: level)
        logger.debug("m")
        logger.info("m")
        logger.warning("m")
        logger.error("m")
        #expect(collector.lines.map(Self.levelName) == written)
        #expect(logger.level == level)
    }

    @Test("log(_:_:) and log(_:_:fieldList:) filter the same way", arguments: LogLevel.allCases)
    func explicitLevelFiltering(messageLevel: LogLevel) {
        let collector = LineCollector()
        let logger = collector.makeLogger(level: .warning)
        logger.log(messageLevel, "m")
        logger.log(messageLevel, "m", fieldList: [("k", "v")])
        #expect(collector.lines.count == (messageLevel >= .warning ? 2 : 0))
    }

    // MARK: - Line format

    @Test("a line is time, level, msg, then fields, ending in one newline")
    func lineShape() throws {
        let collector = LineCollector()
        let before = Date()
        collector.makeLogger(level: .info).info("ready", ["listen": "127.0.0.1:7780"])
        let after = Date()

        let line = try #require(collector.lines.first)
        #expect(collector.lines.count == 1)
        let match = try #require(
            try /^time=(\S+) level=info msg=ready listen=127\.0\.0\.1:7780\n$/.wholeMatch(in: line))
        let time = String(match.1)
        #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{4})/) != nil, "\(time)")
        let style = Date.ISO8601FormatStyle().year().month().day().dateTimeSeparator(.standard)
            .time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        let parsed = try Date(time, strategy: style)
        #expect(parsed >= before.addingTimeInterval(-1) && parsed <= after.addingTimeInterval(1))
    }

    @Test("the time of a line is the caller's clock's, in with(_:)'s loggers too: Core reads no clock")
    func callersClock() throws {
        let collector = LineCollector()
        let moment = Date(timeIntervalSince1970: 1_800_000_000.25)
        let logger = collector.makeLogger(level: .info, clock: moment)
        logger.info("a")
        logger.with(["component": "x"]).info("b")
        #expect(
            collector.lines == [
                "time=2027-01-15T08:00:00.250Z level=info msg=a\n",
                "time=2027-01-15T08:00:00.250Z level=info msg=b component=x\n",
            ])
    }

    @Test("fields keep their order: the logger's, then with(_:)'s, then the call's")
    func fieldOrder() {
        let collector = LineCollector()
        let logger = collector.makeLogger(level: .debug, fields: [("component", "server"), ("b", "2")])
            .with(["conn": "7", "a": "1"])
        logger.info("accepted", ["zeta": "z", "alpha": "a", "mid": "m"])
        logger.log(.warning, "slow", fieldList: [("z", "1"), ("y", "2")])
        #expect(
            collector.lines.map(Self.withoutTime) == [
                "level=info msg=accepted component=server b=2 conn=7 a=1 zeta=z alpha=a mid=m\n",
                "level=warning msg=slow component=server b=2 conn=7 a=1 z=1 y=2\n",
            ]
        )
    }

    @Test("with(_:) shares the sink and level and leaves the original logger unchanged")
    func withDerivesALogger() {
        let collector = LineCollector()
        let base = collector.makeLogger(level: .info, fields: [("component", "daemon")])
        let derived = base.with(["conn": "1"])
        let twiceDerived = derived.with(["request": "PING"])
        base.info("one")
        derived.info("two")
        twiceDerived.debug("dropped")
        twiceDerived.info("three")
        #expect(derived.level == .info)
        #expect(
            collector.lines.map(Self.withoutTime) == [
                "level=info msg=one component=daemon\n",
                "level=info msg=two component=daemon conn=1\n",
                "level=info msg=three component=daemon conn=1 request=PING\n",
            ]
        )
    }

    @Test(
        "messages and field values are quoted so each call stays one parseable line",
        arguments: [
            ("two words", "v", #"msg="two words" k=v"#),
            ("ready", "has space", #"msg=ready k="has space""#),
            ("say \"hi\"", "x", #"msg="say \"hi\"" k=x"#),
            ("ok", "line1\nline2", #"msg=ok k="line1\nline2""#),
            ("multi\r\nline", "", #"msg="multi\r\nline" k="""#),
            ("bell\u{7}", "esc\u{1B}", #"msg="bell\u0007" k="esc\u001b""#),
            ("a=b", "c\\d", #"msg="a=b" k="c\\d""#),
            ("tab\tbed", "del\u{7F}", #"msg="tab\tbed" k="del\u007f""#),
        ]
    )
    func quoting(message: String, value: String, expected: String) throws {
        let collector = LineCollector()
        collector.makeLogger(level: .debug).error(message, ["k": value])
        let line = try #require(collector.lines.first)
        #expect(collector.lines.count == 1)
        #expect(Self.withoutTime(line) == "level=error " + expected + "\n")
        #expect(line.filter { $0 == "\n" || $0 == "\r\n" }.count == 1)
        #expect(line.hasSuffix("\n"))
        #expect(!line.dropLast().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    @Test("one sink call per logged line, each ending in exactly one newline")
    func oneLinePerCall() {
        let collector = LineCollector()
        let logger = collector.makeLogger(level: .debug)
        for index in 0..<5 { logger.info("line \(index)\nstill line \(index)", ["i": "\(index)"]) }
        let lines = collector.lines
        #expect(lines.count == 5)
        for (index, line) in lines.enumerated() {
            #expect(line.hasSuffix("\n"))
            #expect(line.dropLast().contains("\n") == false)
            #expect(line.hasSuffix(#" msg="line \#(index)\nstill line \#(index)" i=\#(index)"# + "\n"))
        }
    }

    @Test("lines logged from many tasks at once arrive whole")
    func concurrentLogging() async {
        let collector = LineCollector()
        let logger = collector.makeLogger(level: .info)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<100 { logger.info("tick", ["task": "\(task)", "i": "\(index)"]) }
                }
            }
        }
        let lines = collector.lines
        #expect(lines.count == 800)
        #expect(lines.allSatisfy { $0.hasSuffix("\n") && $0.filter { $0 == "\n" }.count == 1 })
        #expect(Set(lines.map(Self.withoutTime)).count == 800)
    }

    // MARK: - Helpers

    /// The line without its leading `time=… ` field, which changes from run to run.
    private static func withoutTime(_ line: String) -> String {
        guard line.hasPrefix("time="), let space = line.firstIndex(of: " ") else { return "missing time: " + line }
        return String(line[line.index(after: space)...])
    }

    /// The value of the `level=` field.
    private static func levelName(_ line: String) -> String {
        let rest = withoutTime(line)
        guard rest.hasPrefix("level="), let space = rest.firstIndex(of: " ") else { return "no level: " + line }
        return String(rest[rest.index(rest.startIndex, offsetBy: "level=".count)..<space])
    }
}
