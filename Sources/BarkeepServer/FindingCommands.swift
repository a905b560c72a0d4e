import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// INGEST, RUNS, RUN SHOW, FINDINGS and FINDING SHOW; the triage commands are TriageCommands'. RUNS, RUN SHOW and
/// FINDING SHOW are declared by their specs (BarkeepAPI).
enum FindingCommands {
    static let all: [Command] = [ingest, runs, runShow, findings, show] + TriageCommands.all

    /// `INGEST PROJECT format=… [commit=SHA [commit-time=ISO8601]] [scope=PREFIX] [force=yes] SIZE` and SIZE bytes
    /// of scanner output. The upload is parsed and synced on a database thread, never on the event loop.
    static let ingest = Command(
        "INGEST",
        positional: 2...2,
        keys: ["commit", "commit-time", "scope", "force"],
        requiredKeys: ["format"],
        minimumRole: Role.leastToIngest,
        takesPayload: true
    ) { input throws(CommandError) in
        let project = input.argument(0)
        guard let formatText = input.keyword("format"), let format = ScanFormat(rawValue: formatText) else {
            throw CommandError(
                .badArgument,
                "format must be " + ScanFormat.allCases.map(\.rawValue).joined(separator: " or ")
            )
        }
        let commit = input.keyword("commit")?.lowercased()
        if let commit, commit.count < 4 || commit.count > 64 || !commit.allSatisfy(\.isHexDigit) {
            throw CommandError(.badArgument, "commit must be a hexadecimal commit id")
        }
        let commitTime = try commitTime(input.keyword("commit-time"), commit: commit)
        let isForced: Bool
        switch input.keyword("force") {
        case nil, "no": isForced = false
        case "yes": isForced = true
        default: throw CommandError(.badArgument, "force must be yes or no")
        }
        let scope = input.keyword("scope") ?? ""
        // The ingest lets go of the bytes once parsed, and gives what it freed back to the system.
        let upload = ScanUpload(input.payload ?? [])
        let actor = input.session.actor
        return .database { connection in
            // Built here, on a database thread: the request digests the upload.
            let request = IngestRequest(
                upload, format: format, project: project, commit: commit, commitTime: commitTime, scope: scope,
                isForced: isForced, actor: actor)
            return try ingestUpload(request, on: connection)
        }
    }

    /// The `commit-time` key's value: strict ISO 8601 with an offset, and only beside a commit.
    private static func commitTime(_ text: String?, commit: String?) throws(CommandError) -> Date? {
        guard let text else { return nil }
        guard let time = CommitTime.parse(text) else {
            throw CommandError(
                .badArgument, "commit-time must be an ISO 8601 time with an offset (2026-11-30T10:00:00+01:00)")
        }
        guard commit != nil else { throw CommandError(.badArgument, "commit-time needs commit") }
        return time
    }

    /// Ingests an upload through the store's `Ingestor` and replies with what it did: a scan's counts, or an SDK
    /// check's summary and the items it changed. A document that does not parse is `BADARG` naming the place in it;
    /// a stale scan is `CONFLICT`; neither stores anything.
    static func ingestUpload(_ request: IngestRequest, on connection: PostgresConnection) throws -> CommandResult {
        let outcome = try Ingestor.ingest(request, on: connection)
        switch outcome {
        case .scan(let result):
            // What this call changed: a repeat changed nothing, whatever its run's counts say.
            let counts = result.counts
            return CommandResult(
                .ok([
                    "run": String(result.run.number), "new": String(counts.new), "fixed": String(counts.fixed),
                    "reopened": String(counts.reopened), "unchanged": String(counts.unchanged),
                    "moved": String(counts.moved), "changed": String(counts.changed), "open": String(result.open),
                    "repeat": result.isRepeat ? "yes" : "no",
                ])
            )
        case .check(let result):
            return CommandResult(
                .summarizedRecords(
                    result.itemChanges.map(\.record),
                    summary: Record([
                        "run": String(result.run.number), "sdk": result.checkedSDK.description,
                        "project-sdk": result.projectSDK,
                        "symbols": String(result.symbols), "found": String(result.found),
                        "unblocked": String(result.unblockedCount),
                        "blocked": String(result.blockedCount),
                        "repeat": result.isRepeat ? "yes" : "no",
                    ])
                )
            )
        }
    }

    /// `RUNS PROJECT [limit=N]`: the project's runs, newest first, at most N (`RunsRequest.defaultLimit` unless
    /// given): streamed as FINDINGS is, each page encoded through `RunRecord`'s fields.
    static let runs = Command(RunsRequest.self) { request, input in
        let limit = request.limit?.value ?? RunsRequest.defaultLimit
        let version = input.session.protocolVersion
        return .streamed(
            StreamedReply(positions: RunsPosition.self) { connection, position, page in
                var sent = position?.sent ?? 0
                try ScanStore.runPages(
                    of: request.project, limit: limit - sent, after: position?.id,
                    pageSize: StreamedReply.recordsPerPage, on: connection
                ) { runs, isLast in
                    sent += runs.count
                    return try page(
                        runs.map { RunRecord($0).record(version: version) },
                        runs.last.map { RunsPosition(id: $0.id, sent: sent) }, isLast)
                }
            })
    }

    /// Where a streamed RUNS reply stopped: the last run sent, and how many were.
    struct RunsPosition: Sendable {
        /// The run's row id.
        var id: Int64
        /// Runs sent so far, counted against the limit.
        var sent: Int
    }

    /// `FINDINGS PROJECT [FILTERS…]`: the filter language of FindingQuery; without `status`, the findings that need
    /// work. Streamed: a page of findings is read only once the client has read enough of the ones before, and
    /// encoded through `FindingRecord`'s fields.
    static let findings = Command(FindingsRequest.self) { request, input throws(CommandError) in
        let query = try FindingCommands.query(request.filters)
        let version = input.session.protocolVersion
        return .streamed(
            StreamedReply(positions: FindingListPosition.self) { connection, position, page in
                try FindingStore.pages(
                    project: request.project, query: query, after: position, pageSize: StreamedReply.recordsPerPage,
                    on: connection
                ) { findings, isLast in
                    try page(
                        findings.map { FindingRecord($0).record(version: version) }, findings.last?.listPosition,
                        isLast)
                }
            })
    }

    /// The query `filters` make; what FindingQuery refuses is `BADARG`.
    static func query(_ filters: FindingFilters) throws(CommandError) -> FindingQuery {
        do throws(CoreError) {
            return try filters.query()
        } catch {
            throw CommandError(.badArgument, error.description)
        }
    }

    /// The filter keys of `request` as a query; what FindingQuery refuses is `BADARG`.
    static func query(_ request: Request) throws(CommandError) -> FindingQuery {
        do throws(CoreError) {
            return try FindingQuery.parse(keywords: request.keywordList)
        } catch {
            throw CommandError(.badArgument, error.description)
        }
    }

    static let runShow = Command(RunShowRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let run = try ScanStore.run(project: request.project, number: request.number.value, on: connection)
            return CommandResult(RunShowRequest.Reply([RunRecord(run)]), version: version)
        }
    }

    static let show = Command(FindingShowRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let (finding, history) = try FindingStore.show(
                project: request.project, number: request.number.value, on: connection)
            return CommandResult(
                FindingShowRequest.Reply(FindingRecord(finding), rows: history.map(EventFields.init)),
                version: version)
        }
    }

    /// A finding's, an item's or a run's number in its project (`what` names which, for the error).
    static func number(_ text: String, of what: String) throws(CommandError) -> Int {
        guard let number = Int32(text), number > 0 else {
            throw CommandError(.badArgument, "a \(what) is named by its number in the project: 1 to 2147483647")
        }
        return Int(number)
    }

}

extension RunRecord {
    /// The run's record.
    init(_ run: ScanRun) {
        self.init()
        id = run.number
        format = run.format
        tool = run.tool
        toolVersion = run.toolVersion
        commit = run.commit
        commitTime = run.commitTime?.postgresText
        scope = run.scope.isEmpty ? nil : run.scope
        filesScanned = run.filesScanned
        new = run.counts.new
        fixed = run.counts.fixed
        reopened = run.counts.reopened
        unchanged = run.counts.unchanged
        moved = run.counts.moved
        changed = run.counts.changed
        actor = run.actor
        ingested = run.ingestedAt.postgresText
        lifecycle = run.lifecycle
    }
}

extension ScanRun {
    /// The run as a `run` record (RunRecord's fields), for STATUS's scan part, not yet declared by a spec.
    var record: Record { RunRecord(self).record(version: ProtocolVersion.supported.upperBound) }
}
