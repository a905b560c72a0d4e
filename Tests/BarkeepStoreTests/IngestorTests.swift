import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Testing

/// The ingest service that uploads and sync sources share: the format is the caller's, the result typed.
@Suite("Ingestor")
struct IngestorTests {
    private let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: "27.0", deploymentTarget: nil, actor: "test", on: connection)
    }

    private static let scan = Array(
        """
        {"tool":"duo_scan","version":"1.2.2","root":"/src","source_files_scanned":1,"findings":[\
        {"id":"a","rule":"DUO001","title":"t","severity":"high","skill":"s","file":"A.swift","line":3,\
        "snippet":"x","source":"talk","advice":"a"}]}
        """.utf8)

    private static let check = Array(
        #"{"tool":"sdk_check","sdk":"27.0","symbols":[{"symbol":"toolbarVerticalEdge","found":false}]}"#.utf8)

    private func ingest(_ payload: [UInt8], _ format: ScanFormat, scope: String = "") throws -> IngestOutcome {
        try Ingestor.ingest(
            IngestRequest(ScanUpload(payload), format: format, project: "app", scope: scope, actor: "ci"),
            on: connection)
    }

    @Test("a scan is synced and its counts returned; the same bytes again are a repeat of the same run")
    func scan() throws {
        let first = try ingest(Self.scan, .duoScan)
        guard case .scan(let result) = first else {
            Issue.record("a duo-scan document gave \(first)")
            return
        }
        #expect(result.counts.new == 1 && !first.isRepeat && result.open == 1)
        let again = try ingest(Self.scan, .duoScan)
        #expect(again.isRepeat && again.run == first.run)
    }

    @Test("an SDK check is recorded as a check, and takes no scope")
    func check() throws {
        let outcome = try ingest(Self.check, .sdkCheck)
        guard case .check(let result) = outcome else {
            Issue.record("an sdk-check document gave \(outcome)")
            return
        }
        #expect(result.symbols == 1 && result.found == 0 && outcome.run.format == "sdk-check")
        #expect(throws: StoreError.invalid("an SDK check covers the whole project: it takes no scope")) {
            try ingest(Self.check, .sdkCheck, scope: "Sources/")
        }
    }

    @Test("a document is read as the format given, never another: the wrong one is invalid and stores nothing")
    func explicitFormat() throws {
        for format in [ScanFormat.sarif, .sdkCheck] {
            #expect {
                try ingest(Self.scan, format)
            } throws: { error in
                guard case StoreError.invalid(let message) = error else { return false }
                return message.hasPrefix("the \(format.rawValue) upload is not valid: ")
            }
        }
        let runs = try connection.query("SELECT count(*) AS n FROM scan_runs")
        #expect(try runs.first?.decode("n") as Int? == 0)
    }
}
