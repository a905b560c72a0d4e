/// The first import of a tool's findings into a project (for a scope): the one rule that decides when a sync writes
/// no `finding.new` event per new finding, and how its `scan.ingested` event says so.
///
/// A sync is a first import when the project holds no scanner finding of the scan's tool whose file is inside the
/// run's scope (`SyncPlanner.isInside`), in any status, fixed ones included. Every finding of such a scan is new, and
/// announcing each one would write as many events as findings (100,000 for a large app) and send as many webhook
/// requests: the run's one `scan.ingested` event, whose counts say how many findings it created, announces them
/// all, with `reason` `FirstImport.reason`. Each finding still records the run that first saw it. Later syncs write
/// one `finding.new` per new finding.
public enum FirstImport {
    /// The `reason` of a first import's `scan.ingested` event.
    public static let reason = "first import"

    /// Whether a scan with `scope` is a first import, given the files of the project's stored scanner findings of
    /// the scan's tool (every status).
    public static func isFirstImport(storedFiles: some Sequence<String>, scope: String) -> Bool {
        !storedFiles.contains { SyncPlanner.isInside($0, scope: scope) }
    }
}
