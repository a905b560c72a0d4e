/// What a client may do. Each role includes everything the one before it may do.
public enum Role: String, Sendable, Comparable, CaseIterable, Codable {
    /// May only read.
    case reader
    /// May also ingest scans and triage findings.
    case writer
    /// May also manage projects and tokens.
    case admin

    /// The least role that may upload a scan or an SDK check (`INGEST`): the daemon's command table requires it,
    /// and the CLI and MCP check the role `HELLO` answers against it before they read a file.
    public static let leastToIngest = Role.writer

    private var rank: Int {
        switch self {
        case .reader: 0
        case .writer: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }
}
