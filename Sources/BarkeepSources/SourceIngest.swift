import BarkeepCore
import BarkeepStore
import Foundation

/// Ingesting what a source read (a dropped file, a scanner's output) as the source, through the store's `Ingestor`,
/// with the source's own record of the run in the same transaction.
enum SourceIngest {
    /// Thrown inside an ingest when the daemon no longer holds the source: nothing is recorded, and another daemon
    /// (or this one, once it has the lease again) does the run.
    struct LeaseLost: Error {}

    /// Ingests `payload` into the source's project through the store's `Ingestor`, in one transaction with the
    /// source's own record of the run: `record(source, run, isRepeat)` runs in it last, with the source locked and
    /// its lease checked. Returns what the ingest did (the run recorded, or found again, and its counts). A scan of
    /// an old or already ingested `commit` is refused (`CONFLICT`) unless `isForced`, like an upload's; a source
    /// whose format is not one the daemon knows is refused (`StoreError.invalid`), never read as another format.
    /// `renames` (a repository source's, since the commit it read last) go to pass 3 of the sync. With `presence`,
    /// it starts only while the daemon holds it (waiting a little for it; `connectionLost` otherwise, a failure worth
    /// retrying), and its end,
    /// whatever it was, is noted on it.
    @discardableResult
    static func ingest(
        _ payload: [UInt8],
        digest: String? = nil,
        source: Source,
        holder: String,
        commit: String?,
        commitTime: Date? = nil,
        isForced: Bool = false,
        renames: FileRenames = FileRenames(),
        presence: Presence?,
        on connection: PostgresConnection,
        record: @escaping (Source, ScanRun, Bool) throws -> Void
    ) throws -> IngestOutcome {
        try presence?.checkWrite()
        defer { presence?.noteWrite() }
        guard let format = ScanFormat(rawValue: source.settings.format) else {
            throw StoreError.invalid(
                "the source's format \(source.settings.format) is not one of "
                    + ScanFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let locked = Box<Source?>(nil)
        let hook = IngestHook(
            before: { connection in
                locked.value = try lockHeld(source.id, holder: holder, on: connection)
            },
            after: { _, run, isRepeat in
                try record(locked.value ?? source, run, isRepeat)
            }
        )
        let request = IngestRequest(
            ScanUpload(payload), digest: digest, format: format, project: source.project, commit: commit,
            commitTime: commitTime, isForced: isForced, actor: source.actor, renames: renames)
        return try Ingestor.ingest(request, hook: hook, on: connection)
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

    /// What an ingest did, as log fields after `leading`: the run, whether it repeated an earlier document, and
    /// what it changed.
    static func logFields(_ outcome: IngestOutcome, after leading: [(String, String)]) -> [(String, String)] {
        var fields = leading + [("run", String(outcome.run.number)), ("repeat", outcome.isRepeat ? "yes" : "no")]
        switch outcome {
        case .scan(let result):
            let counts = result.counts
            fields += [
                ("new", String(counts.new)), ("fixed", String(counts.fixed)), ("reopened", String(counts.reopened)),
                ("changed", String(counts.changed)), ("open", String(result.open)),
            ]
        case .check(let result):
            fields += [("unblocked", String(result.unblockedCount)), ("blocked", String(result.blockedCount))]
        }
        return fields
    }

    /// A value the ingest hook's closures fill in.
    final class Box<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}
