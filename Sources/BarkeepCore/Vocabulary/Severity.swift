/// How bad a finding is, most severe first (domain/rules.json). The raw values are the protocol's.
public enum Severity: String, Sendable, CaseIterable, Comparable {
    /// Breaks the app on iPhone Duo.
    case critical
    /// Wrong layout or behaviour in a common pose.
    case high
    /// Wrong in some poses.
    case medium
    /// Cosmetic.
    case low
    /// For information.
    case info

    /// More severe sorts first.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    /// One capital letter, for compact columns: `C H M L I`.
    public var letter: String { String(rawValue.prefix(1)).uppercased() }

    private var rank: Int { Severity.allCases.firstIndex(of: self) ?? 0 }
}
