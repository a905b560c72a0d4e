import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// INGEST, RUNS, RUN SHOW, FINDINGS and FINDING SHOW, each declared by its spec (BarkeepAPI); the triage commands
/// are TriageCommands'.
enum FindingCommands {
    static let all: [Command] = [ingest, runs, runShow, findings, show] + TriageCommands.all

    /// `INGEST PROJECT format=… [commit=SHA [commit-time=ISO8601]] [scope=PREFIX] [force=yes] [renames=N] SIZE` and
    /// SIZE bytes of scanner output, after N bytes of renames, declared by `IngestUploadRequest`. The upload is
    /// parsed and synced on a database thread, never on the event loop.
    static let ingest = Command(IngestUploadRequest.self) { request, input throws(CommandError) in
        if request.commitTime != nil && request.commit == nil {
            throw CommandError(.badArgument, "commit-time needs commit")
        }
        let payload = input.payload ?? []
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            // The renames are split off and read here, on a database thread: up to 16 MiB of them, before a scan of
            // up to the upload limit, must not hold the event loop.
            var payload = payload
            let renames = try FindingCommands.renames(
                count: request.renames, format: request.format, splitting: &payload)
            // The ingest lets go of the bytes once parsed, and gives what it freed back to the system.
            let upload = ScanUpload(payload)
            payload = []
            // Built here, on a database thread: the request digests the upload.
            let ingest = IngestRequest(
                upload, format: request.format, project: request.project, commit: request.commit?.text.lowercased(),
                commitTime: request.commitTime?.date, scope: request.scope ?? "", isForced: request.isForced ?? false,
                actor: actor, renames: renames)
            return try ingestUpload(ingest, version: version, on: connection)
        }
    }

    /// The renames at the start of an upload's payload (INGEST's `renames=N`: `count`), which are taken off it: the
    /// scan is the rest, and its digest is of the rest alone. A count past the payload, renames that are not UTF-8 or
    /// that `FileRenames.parse` refuses, and renames with an SDK check are `BADARG`, before anything is stored.
    static func renames(count: Int?, format: ScanFormat, splitting payload: inout [UInt8]) throws(CommandError)
        -> FileRenames
    {
        guard let count, count > 0 else { return FileRenames() }
        guard format != .sdkCheck else {
            throw CommandError(.badArgument, "an SDK check takes no renames")
        }
        guard count <= payload.count else {
            throw CommandError(.badArgument, "renames=\(count) is more than the \(payload.count) bytes uploaded")
        }
        guard let text = String(validating: payload[..<count], as: UTF8.self) else {
            throw CommandError(.badArgument, "the renames are not UTF-8")
        }
        payload.removeSubrange(..<count)
        do {
            return try FileRenames.parse(nameStatus: text)
        } catch {
            throw CommandError(.badArgument, "the renames are not valid: \(error)")
        }
    }

    /// Ingests an upload through the store's `Ingestor` and replies with what it did: a scan's counts, or an SDK
    /// check's summary and the items it changed. A document that does not parse is `BADARG` naming the place in it;
    /// a stale scan is `CONFLICT`; neither stores anything.
    static func ingestUpload(
        _ request: IngestRequest, version: Int, on connection: PostgresConnection
    ) throws -> CommandResult {
        let reply: IngestUploadRequest.Reply
        switch try Ingestor.ingest(request, on: connection) {
        case .scan(let result): reply = .ok(ScanIngestSummary(result))
        case .check(let result):
            reply = .records(result.itemChanges.map(ItemChangeRecord.init), summary: SDKCheckSummary(result))
        }
        return CommandResult(reply, version: version)
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
    /// encoded through `FindingRecord`'s fields. With `limit=` or `after=`, one page by number (keyset), read whole,
    /// `OK limit=N [next=N] count=N`.
    static let findings = Command(FindingsRequest.self) { request, input throws(CommandError) in
        let query = try FindingCommands.query(request.filters)
        let version = input.session.protocolVersion
        if request.isPaged {
            return .database { connection in
                let page = try FindingStore.page(
                    project: request.project, query: query, after: request.after?.value, limit: request.pageSize,
                    on: connection)
                return CommandResult(
                    FindingsRequest.Reply(
                        page.findings.map(FindingRecord.init),
                        summary: FindingsPageEnd(limit: request.pageSize, next: page.next)),
                    version: version)
            }
        }
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
        renamed = run.counts.renamed
        actor = run.actor
        ingested = run.ingestedAt.postgresText
        lifecycle = run.lifecycle
    }
}

extension ScanIngestSummary {
    /// What a scan's ingest changed (a repeat changed nothing, whatever its run's counts say).
    init(_ result: IngestResult) {
        self.init()
        run = result.run.number
        counts = result.counts
        open = result.open
        isRepeat = result.isRepeat
    }
}

extension SDKCheckSummary {
    /// What an SDK check found and changed.
    init(_ result: SDKCheckResult) {
        self.init()
        run = result.run.number
        sdk = result.checkedSDK
        projectSDK = result.projectSDK
        symbols = result.symbols
        found = result.found
        unblocked = result.unblockedCount
        blocked = result.blockedCount
        isRepeat = result.isRepeat
    }
}
