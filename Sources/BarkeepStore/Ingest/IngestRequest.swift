import BarkeepCore
import BarkeepHashing
import Foundation

/// One document to ingest and what it is: the upload and its declared format, its digest, the project it goes
/// into, the commit it scans and when that was committed, the part of the project it covers, whether a stale scan
/// is taken anyway, and who ingests it. Built once by whoever received the document (the server's `INGEST`, a sync
/// source, a benchmark) and handed to `Ingestor`, which hands it on to `ScanStore` or `SDKStore`.
public struct IngestRequest: Sendable {
    /// The document's bytes, which the ingest lets go of once they are parsed. Empty for a document the caller
    /// parsed itself (`ScanStore.ingest(_:scan:hook:on:)`).
    public var upload: ScanUpload
    /// The format it is declared in.
    public var format: ScanFormat
    /// The upload's SHA-256 in hex: "the same content is the same run".
    public var digest: String
    /// The project it goes into.
    public var project: String
    /// The commit scanned, if known.
    public var commit: String?
    /// When `commit` was committed, if known: a scan of an older commit than the latest run's is stale.
    public var commitTime: Date?
    /// The path prefix the scan covers; empty: the whole project. An SDK check takes none.
    public var scope: String
    /// Whether a scan `ScanStaleness` refuses is ingested anyway.
    public var isForced: Bool
    /// Who ingests it, as recorded on the run and its events.
    public var actor: String
    /// The files renamed between the commit of the tool's latest run and this one, for pass 3 of the sync; empty:
    /// none known, and the sync is what it was without them. Not part of `digest`.
    public var renames: FileRenames

    /// A request to ingest `upload` as `format`. `digest` is the upload's SHA-256 when the caller has it already
    /// (a streamed upload, an inbox file); otherwise it is computed from the bytes here.
    public init(
        _ upload: ScanUpload,
        digest: String? = nil,
        format: ScanFormat,
        project: String,
        commit: String? = nil,
        commitTime: Date? = nil,
        scope: String = "",
        isForced: Bool = false,
        actor: String,
        renames: FileRenames = FileRenames()
    ) {
        self.upload = upload
        self.digest = digest ?? upload.withBytes { SHA256Digest.hex(of: $0) }
        self.format = format
        self.project = project
        self.commit = commit
        self.commitTime = commitTime
        self.scope = scope
        self.isForced = isForced
        self.actor = actor
        self.renames = renames
    }
}
