/// A SARIF 2.1.0 result level, and how it maps to Barkeep's severities both ways: what `SARIFParser` reads and what
/// `findings --format sarif` writes.
///
/// The two directions are not inverses: SARIF has four levels for Barkeep's five severities. Reading, `error` is
/// high, `warning` medium, `note` low and `none` info. Writing, critical and high are `error`, medium `warning`, low
/// and info `note` (`none` would hide a finding that still needs work: GitHub shows no alert for it).
public enum SARIFLevel: String, Sendable, CaseIterable {
    /// A serious problem.
    case error
    /// A problem worth looking at.
    case warning
    /// A minor problem, or an opportunity.
    case note
    /// Informational only.
    case none

    /// The level a finding of `severity` (critical, high, medium, low or info) is written with; `warning`, SARIF's
    /// own default, for a word Barkeep does not define.
    public init(severity: String) {
        switch Severity(rawValue: severity) {
        case .critical, .high: self = .error
        case .low, .info: self = .note
        case .medium, nil: self = .warning
        }
    }

    /// The severity of a result read at this level.
    public var severity: String {
        let severity: Severity =
            switch self {
            case .error: .high
            case .warning: .medium
            case .note: .low
            case .none: .info
            }
        return severity.rawValue
    }
}
