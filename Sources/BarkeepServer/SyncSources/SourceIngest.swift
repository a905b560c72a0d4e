import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// Ingesting what a source read (a dropped file, a scanner's output) as the source, and telling a document the
/// daemon refuses from a failure worth retrying.
enum SourceIngest {
    /// Thrown inside an ingest when the daemon no longer holds the source: nothing is recorded, and another daemon
    /// (or this one, once it has the lease again) does the run.
    struct LeaseLost: Error {}

    /// Ingests `payload` into the source's project in one transaction with the source's own record of the run:
    /// `record(source, run, isRepeat)` runs in it last, with the source locked and its lease checked. Returns the run
    /// recorded (or found again). A scan of an old or already ingested `commit` is refused (`CONFLICT`) unless
    /// `isForced`, like an upload's.
    @discardableResult
    static func ingest(
        _ payload: [UInt8],
        digest: String? = nil,
        source: Source,
        holder: String,
        commit: String?,
        commitTime: Date? = nil,
        isForced: Bool = false,
        on connection: PostgresConnection,
        record: @escaping (Source, ScanRun, Bool) throws -> Void
    ) throws -> ScanRun {
        let locked = Box<Source?>(nil)
        let recorded = Box<ScanRun?>(nil)
        let hook = IngestHook(
            before: { connection in
                locked.value = try lockHeld(source.id, holder: holder, on: connection)
            },
            after: { connection, run, isRepeat in
                try record(locked.value ?? source, run, isRepeat)
                recorded.value = run
            }
        )
        _ = try FindingCommands.ingestUpload(
            payload, digest: digest, format: ScanFormat(rawValue: source.settings.format) ?? .duoScan,
            project: source.project,
            commit: commit, commitTime: commitTime, scope: "", isForced: isForced, actor: source.actor, hook: hook,
            on: connection)
        guard let run = recorded.value else { throw StoreError.invalid("the scan was not recorded") }
        return run
    }

    /// Inside a transaction: locks the source, or throws `LeaseLost` when this daemon no longer holds it.
    static func lockHeld(_ id: Int64, holder: String, on connection: PostgresConnection) throws -> Source {
        do {
            return try SourceStore.lockHeld(id, holder: holder, on: connection)
        } catch StoreError.conflict {
            throw LeaseLost()
        }
    }

    /// Records a failed run in a transaction of its own, if the daemon still holds the source.
    static func recordFailure(
        of source: Source,
        holder: String,
        on connection: PostgresConnection,
        _ outcome: (Source) -> SourceRunOutcome,
        also: (Source) throws -> Void = { _ in }
    ) throws {
        try connection.transaction { connection in
            let locked = try lockHeld(source.id, holder: holder, on: connection)
            try also(locked)
            try SourceStore.recordRun(locked, outcome(locked), on: connection)
        }
    }

    /// SQLSTATE classes that a document's content causes: data exceptions, integrity violations, program limits.
    static let documentErrorClasses: Set<String> = ["22", "23", "54"]

    /// The message `barkeep ingest` would print for `error` (without its `barkeep: ` prefix) when the daemon refuses
    /// the document for good; nil when the error is the database's or the lease's, and the run is worth retrying.
    static func refusal(_ error: any Error) -> String? {
        if let refusal = CommandError(refusing: error) { return "\(refusal.message) (\(refusal.code.rawValue))" }
        guard case StoreError.server(let error) = error, documentErrorClasses.contains(String(error.sqlState.prefix(2)))
        else { return nil }
        // The document holds what the database cannot store (a value out of range, a string too long): the same
        // document would fail again, so it is refused rather than retried for ever.
        return "the database cannot store this scan: \(error.message) (\(ErrorCode.badArgument.rawValue))"
    }

    /// A value the ingest hook's closures fill in.
    final class Box<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}
