import BarkeepCore
import Foundation

/// What one ingest did: a scan synced into the project's findings, or an SDK check recorded.
public enum IngestOutcome: Sendable, Equatable {
    /// A duo-scan or SARIF document, synced.
    case scan(IngestResult)
    /// An SDK check, and the items it blocked or unblocked.
    case check(SDKCheckResult)

    /// The run recorded (an earlier one for a repeat).
    public var run: ScanRun {
        switch self {
        case .scan(let result): result.run
        case .check(let result): result.run
        }
    }

    /// Whether the same document had been ingested before: nothing changed.
    public var isRepeat: Bool {
        switch self {
        case .scan(let result): result.isRepeat
        case .check(let result): result.isRepeat
        }
    }
}

/// The one way a document of scanner output gets into a project, for an upload (`INGEST`) and for a sync source
/// alike: parsed by its declared format, digested ("the same content is the same run"), refused when stale (an old
/// or already ingested commit, unless forced), and synced by `ScanStore` or recorded by `SDKStore`.
public enum Ingestor {
    /// Parses the request's upload as its format and ingests it into its project, in one transaction that also runs
    /// `hook` (a sync source's bookkeeping), letting go of the bytes once they are parsed. After an upload of
    /// `FreedMemory.uploadThreshold` bytes or more, the memory the ingest freed goes back to the system.
    ///
    /// A document that does not parse is `StoreError.invalid` naming the place in it, and stores nothing; so is a
    /// scope on an SDK check, which covers the whole project. A scan that `ScanStaleness` refuses is
    /// `StoreError.conflict`, and stores nothing.
    public static func ingest(
        _ request: IngestRequest,
        hook: IngestHook? = nil,
        on connection: PostgresConnection
    ) throws -> IngestOutcome {
        let upload = request.upload
        defer {
            // Whatever path the ingest took, its bytes go now if the parse did not take them, and with them what
            // the ingest freed.
            _ = upload.take()
            if upload.count >= FreedMemory.uploadThreshold { FreedMemory.returnToSystem() }
        }
        let parse: @Sendable ([UInt8]) throws(CoreError) -> ScanTable
        let format = request.format
        switch format {
        case .duoScan: parse = DuoScanParser.parseTable
        case .sarif: parse = { bytes throws(CoreError) in ScanTable(try SARIFParser.parse(bytes)) }
        case .sdkCheck:
            guard request.scope.isEmpty else {
                throw StoreError.invalid("an SDK check covers the whole project: it takes no scope")
            }
            let report: SDKCheckReport
            do {
                report = try SDKCheckParser.parse(upload.take())
            } catch {
                throw StoreError.invalid("the sdk-check upload is not valid: \(error)")
            }
            return .check(try SDKStore.ingestCheck(request, report: report, hook: hook, on: connection))
        }
        do {
            // Parsed on another core while the store reads the project's findings; the bytes go once parsed.
            return .scan(
                try ScanStore.ingest(
                    request,
                    parsing: {
                        do throws(CoreError) {
                            return try parse(upload.take())
                        } catch {
                            throw InvalidDocument(problem: error)
                        }
                    },
                    hook: hook,
                    on: connection
                ))
        } catch let invalid as InvalidDocument {
            // Nothing is stored for a document that does not parse; the error names the place in it.
            throw StoreError.invalid("the \(format.rawValue) upload is not valid: \(invalid.problem)")
        }
    }

    /// A document that did not parse, told apart from the store's own errors.
    private struct InvalidDocument: Error {
        /// What the parser found, naming the place.
        let problem: CoreError
    }
}

extension SDKCheckResult {
    /// How many items the check unblocked.
    public var unblockedCount: Int { itemChanges.filter { $0.to != .blocked }.count }
    /// How many items the check blocked.
    public var blockedCount: Int { itemChanges.filter { $0.to == .blocked }.count }
}
