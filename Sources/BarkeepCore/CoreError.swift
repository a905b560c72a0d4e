/// Errors of the domain: input documents and source directories that cannot be read. Each case names the place.
public enum CoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A scanner file is not what its format says: `path` names the place (`findings[12].line`), `problem` what
    /// is wrong there (`expected an integer`).
    case invalidDocument(path: String, problem: String)
    /// The document is of a version this parser does not read (`SARIF 2.0.0`).
    case unsupportedVersion(String)
    /// A source directory to scan cannot be read: `path` as given, `reason` why (`not a directory`).
    case unreadableDirectory(path: String, reason: String)
    /// A source directory to discover screens in is neither the scanner root nor inside it: both as given.
    case sourceOutsideRoot(source: String, root: String)
    /// A request's value that the domain's rules refuse: `key` names the argument (`status`, the wire key), and
    /// `problem` is the whole message (`'opne' is not a status: …`).
    case invalidArgument(key: String, problem: String)

    public var description: String {
        switch self {
        case .invalidDocument(let path, let problem): path.isEmpty ? problem : "\(path): \(problem)"
        case .unsupportedVersion(let what): "unsupported version: \(what)"
        case .unreadableDirectory(let path, let reason): "cannot read the directory \(path): \(reason)"
        case .sourceOutsideRoot(let source, let root): "the source directory \(source) is not inside the root \(root)"
        case .invalidArgument(_, let problem): problem
        }
    }
}
