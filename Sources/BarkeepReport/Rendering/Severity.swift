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

    /// The counts that are not zero, most severe first, as people read them: `9 high, 15 medium, 3 low`; empty when
    /// every count is zero. The dashboard, the web overview and the report all say it so.
    public var text: String {
        Severity.allCases.compactMap { self[$0] > 0 ? "\(self[$0]) \($0.rawValue)" : nil }.joined(separator: ", ")
    }

    /// Adds two sets of counts.
    public static func + (lhs: SeverityCounts, rhs: SeverityCounts) -> SeverityCounts {
        SeverityCounts(
            critical: lhs.critical + rhs.critical, high: lhs.high + rhs.high, medium: lhs.medium + rhs.medium,
            low: lhs.low + rhs.low, info: lhs.info + rhs.info)
    }

    /// The counts of a STATUS record's work fields: one per severity, in Core's order (`Severity.allCases`).
    init(_ counts: [Int]) {
        func count(_ severity: Severity) -> Int {
            guard let index = Severity.allCases.firstIndex(of: severity), index < counts.count else { return 0 }
            return counts[index]
        }
        self.init(
            critical: count(.critical), high: count(.high), medium: count(.medium), low: count(.low),
            info: count(.info))
    }
}
