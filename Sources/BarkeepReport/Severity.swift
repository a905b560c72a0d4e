import BarkeepCore

/// How many findings needing work there are of each severity.
public struct SeverityCounts: Sendable, Equatable {
    /// Critical findings.
    public var critical: Int
    /// High findings.
    public var high: Int
    /// Medium findings.
    public var medium: Int
    /// Low findings.
    public var low: Int
    /// Informational findings.
    public var info: Int

    /// Counts, zero by default.
    public init(critical: Int = 0, high: Int = 0, medium: Int = 0, low: Int = 0, info: Int = 0) {
        self.critical = critical
        self.high = high
        self.medium = medium
        self.low = low
        self.info = info
    }

    /// The count of one severity.
    public subscript(severity: Severity) -> Int {
        switch severity {
        case .critical: critical
        case .high: high
        case .medium: medium
        case .low: low
        case .info: info
        }
    }

    /// All severities together.
    public var total: Int { critical + high + medium + low + info }

    /// Adds two sets of counts.
    public static func + (lhs: SeverityCounts, rhs: SeverityCounts) -> SeverityCounts {
        SeverityCounts(
            critical: lhs.critical + rhs.critical, high: lhs.high + rhs.high, medium: lhs.medium + rhs.medium,
            low: lhs.low + rhs.low, info: lhs.info + rhs.info)
    }

    /// Reads the five counts, each keyed by its severity's name.
    init(_ fields: RecordFields) throws(ReportError) {
        self.init(
            critical: try fields.count("critical"), high: try fields.count("high"), medium: try fields.count("medium"),
            low: try fields.count("low"), info: try fields.count("info"))
    }

    /// Reads the five counts keyed `PREFIX-critical` …; an absent one (an older server's record) counts 0.
    init(_ fields: RecordFields, prefix: String) throws(ReportError) {
        func count(_ severity: Severity) throws(ReportError) -> Int {
            try fields.optionalCount("\(prefix)-\(severity.rawValue)") ?? 0
        }
        self.init(
            critical: try count(.critical), high: try count(.high), medium: try count(.medium), low: try count(.low),
            info: try count(.info))
    }
}
