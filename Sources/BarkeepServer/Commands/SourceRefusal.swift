import BarkeepProtocol
import BarkeepSources
import BarkeepStore

/// How a sync source words a document the daemon refuses for good, the way `barkeep ingest` would print it; given to
/// the source runner (`SourceRunner.Configuration.refusal`), which knows no protocol error codes.
public enum SourceRefusal {
    /// SQLSTATE classes that a document's content causes: data exceptions, integrity violations, program limits.
    static let documentErrorClasses: Set<String> = ["22", "23", "54"]

    /// The message `barkeep ingest` would print for `error` (without its `barkeep: ` prefix) when the daemon refuses
    /// the document for good; nil when the error is the database's or the lease's, and the run is worth retrying.
    @Sendable
    public static func message(for error: any Error) -> String? {
        if let refusal = CommandError(refusing: error) { return "\(refusal.message) (\(refusal.code.rawValue))" }
        guard case StoreError.server(let error) = error, documentErrorClasses.contains(String(error.sqlState.prefix(2)))
        else { return nil }
        // The document holds what the database cannot store (a value out of range, a string too long): the same
        // document would fail again, so it is refused rather than retried for ever.
        return "the database cannot store this scan: \(error.message) (\(ErrorCode.badArgument.rawValue))"
    }
}
