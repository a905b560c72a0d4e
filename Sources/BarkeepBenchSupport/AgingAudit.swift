/// The scans of an audit that ages, one a day: a project of `findings` findings, then each `advance()` the churn of a
/// real history: about 1% of the findings fixed (and as many as are reopened), 1% new (half in files that have findings, half in new files), 3%
/// moved (every line of a finding shifts), a few edited in place (changed) and a few fixed earlier reported again
/// (reopened). Deterministic from its seed: the same seed gives the same scans. barkeep-sync-bench --history and
/// AgingAuditTests ingest its documents.
public struct AgingAudit: Sendable {
    /// One finding of the scan as the scanner reports it.
    struct Reported: Sendable {
        var rule: String
        var file: String
        var line: Int
        var snippet: String
    }

    /// What the last `advance()` did, as the sync should count it.
    public struct Churn: Sendable, Equatable {
        /// Findings first reported.
        public var new = 0
        /// Findings no longer reported.
        public var fixed = 0
        /// Findings fixed before and reported again.
        public var reopened = 0
        /// Findings on other lines, their code the same.
        public var moved = 0
        /// Findings edited in place: the same place, other code.
        public var changed = 0

        /// All of them.
        public var total: Int { new + fixed + reopened + moved + changed }
    }

    private let rules = ["DUO001", "DUO002", "DUO004", "DUO007", "DUO011"]
    private var present: [Reported] = []
    private var gone: [Reported] = []
    private var state: UInt64
    private var serial = 0
    /// The scans made so far after the first (the sync number of the next document, counting the first as 0).
    public private(set) var day = 0
    /// What the last `advance()` did.
    public private(set) var churn = Churn()

    /// The first scan: `findings` findings over findings/40 files.
    public init(findings: Int, seed: UInt64 = 29) {
        state = seed
        for index in 0..<findings {
            present.append(
                fresh(file: "Sources/Feature\(index / 1_000)/Screen\(index / 40).swift", line: 10 + index % 40 * 5))
        }
    }

    /// The findings the current scan reports.
    public var count: Int { present.count }

    /// A draw in `0..<bound` (a 64-bit linear congruential step, its high bits).
    private mutating func draw(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }

    private mutating func fresh(file: String, line: Int) -> Reported {
        serial += 1
        return Reported(
            rule: rules[serial % rules.count], file: file, line: line,
            snippet: "let v\(serial) = UIScreen.main.bounds")
    }

    /// The next day's scan: fixes, reopens, moves, edits and new findings, in proportion to the open findings.
    public mutating func advance() {
        day += 1
        var churn = Churn()
        let size = present.count
        // Edited in place and moved first, on findings that stay; then fixed, reopened and new.
        for _ in 0..<max(size / 500, 1) {
            let index = draw(present.count)
            present[index].snippet += " // edit \(day)"
            churn.changed += 1
        }
        var movedFiles = Set<String>()
        while churn.moved < size * 3 / 100 {
            let file = present[draw(present.count)].file
            guard movedFiles.insert(file).inserted else { continue }
            for index in present.indices where present[index].file == file {
                present[index].line += 3
                churn.moved += 1
            }
        }
        // Reported again: fixed on an earlier day, its code back; as many more fixed, so that the project keeps its size.
        for _ in 0..<max(size / 1_000, 1) where !gone.isEmpty {
            present.append(gone.remove(at: draw(gone.count)))
            churn.reopened += 1
        }
        for _ in 0..<(max(size / 100, 1) + churn.reopened) {
            gone.append(present.remove(at: draw(present.count - churn.reopened)))
            churn.fixed += 1
        }
        for number in 0..<max(size / 100, 1) {
            let file =
                number % 2 == 0
                ? present[draw(present.count)].file : "Sources/New/Day\(day)/Screen\(number / 40).swift"
            present.append(fresh(file: file, line: 5_000 + day * 100 + number))
            churn.new += 1
        }
        self.churn = churn
    }

    /// The duo_scan document of the current scan; `extra` changes nothing but its bytes (`source_files_scanned`), a
    /// scan of a commit that changed no finding.
    public func document(extra: Int = 0) -> [UInt8] {
        Self.duoScanDocument(
            present.lazy.map { ($0.rule, $0.file, $0.line, $0.snippet) }, filesScanned: present.count / 40 + extra)
    }

    /// A duo_scan document of `findings`, each high severity, and `filesScanned`: what the benchmarks ingest.
    public static func duoScanDocument(
        _ findings: some Sequence<(rule: String, file: String, line: Int, snippet: String)>, filesScanned: Int
    ) -> [UInt8] {
        var text = "{\"tool\":\"duo_scan\",\"version\":\"1.2.2\",\"root\":\"/src\","
        text += "\"source_files_scanned\":\(filesScanned),"
        text += "\"project\":{\"lifecycle\":\"scene\"},\"findings\":["
        var first = true
        for item in findings {
            if !first { text += "," }
            first = false
            text += "{\"id\":\"\(item.rule):\(item.file):\(item.line)\",\"rule\":\"\(item.rule)\",\"title\":\"t\","
            text += "\"severity\":\"high\",\"skill\":\"s\",\"file\":\"\(item.file)\",\"line\":\(item.line),"
            text += "\"snippet\":\"\(item.snippet)\",\"source\":\"talk\",\"advice\":\"fix it\"}"
        }
        text += "]}"
        return Array(text.utf8)
    }
}
