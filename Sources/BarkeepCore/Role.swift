/// What a client may do. Each role includes everything the one before it may do.
public enum Role: String, Sendable, Comparable, CaseIterable, Codable {
    /// May only read.
    case reader
    /// May also ingest scans and triage findings.
    case writer
    /// May also manage projects and tokens.
    case admin

    private var rank: Int {
        switch self {
        case .reader: 0
        case .writer: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }
}
