import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// INGEST, RUNS, FINDINGS and FINDING SHOW; the triage commands are TriageCommands'.
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

    /// `RUNS PROJECT [limit=N]`: the project's runs, newest first, at most N (100 unless given, up to a million):
    /// streamed as FINDINGS is.
    static let runs = Command("RUNS", positional: 1...1, keys: ["limit"], minimumRole: .reader) {
        input throws(CommandError) in
        let project = input.argument(0)
        let limit = try positiveInteger(input.keyword("limit"), key: "limit") ?? 100
        return .streamed(
            StreamedReply(positions: RunsPosition.self) { connection, position, page in
                var sent = position?.sent ?? 0
                try ScanStore.runPages(
                    of: project, limit: limit - sent, after: position?.id, pageSize: StreamedReply.recordsPerPage,
                    on: connection
                ) { runs, isLast in
                    sent += runs.count
                    return try page(runs.map(\.record), runs.last.map { RunsPosition(id: $0.id, sent: sent) }, isLast)
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
    /// work. Streamed: a page of findings is read only once the client has read enough of the ones before.
    static let findings = Command(
        "FINDINGS",
        positional: 1...1,
        keys: Set(FindingQuery.keys),
        minimumRole: .reader
    ) { input throws(CommandError) in
        let (project, query) = (input.argument(0), try query(input.request))
        return .streamed(
            StreamedReply(positions: FindingListPosition.self) { connection, position, page in
                try FindingStore.pages(
                    project: project, query: query, after: position, pageSize: StreamedReply.recordsPerPage,
                    on: connection
                ) { findings, isLast in
                    try page(findings.map(\.record), findings.last?.listPosition, isLast)
                }
            })
    }

    /// The filter keys of `request` as a query; what FindingQuery refuses is `BADARG`.
    static func query(_ request: Request) throws(CommandError) -> FindingQuery {
        do throws(CoreError) {
            return try FindingQuery.parse(keywords: request.keywordList)
        } catch {
            throw CommandError(.badArgument, error.description)
        }
    }

    static let runShow = Command("RUN SHOW", positional: 2...2, minimumRole: .reader) { input throws(CommandError) in
        let (project, number) = (input.argument(0), try number(input.argument(1), of: "run"))
        return .database { connection in
            CommandResult(.records([try ScanStore.run(project: project, number: number, on: connection).record]))
        }
    }

    static let show = Command("FINDING SHOW", positional: 2...2, minimumRole: .reader) { input throws(CommandError) in
        let (project, number) = (input.argument(0), try number(input.argument(1), of: "finding"))
        return .database { connection in
            let (finding, history) = try FindingStore.show(project: project, number: number, on: connection)
            return CommandResult(.records([finding.record] + history.map(\.record)))
        }
    }

    /// A finding's, an item's or a run's number in its project (`what` names which, for the error).
    static func number(_ text: String, of what: String) throws(CommandError) -> Int {
        guard let number = Int32(text), number > 0 else {
            throw CommandError(.badArgument, "a \(what) is named by its number in the project: 1 to 2147483647")
        }
        return Int(number)
    }

    private static func positiveInteger(_ text: String?, key: String) throws(CommandError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0, value <= 1_000_000 else {
            throw CommandError(.badArgument, "\(key) must be a number from 1 to 1000000")
        }
        return value
    }
}

extension ScanRun {
    /// The run as a `run` record.
    var record: Record {
        Record([
            "id": String(number), "format": format, "tool": tool, "tool-version": toolVersion, "commit": commit,
            "commit-time": commitTime?.postgresText,
            "scope": scope.isEmpty ? nil : scope, "files-scanned": filesScanned.map(String.init),
            "new": String(counts.new), "fixed": String(counts.fixed), "reopened": String(counts.reopened),
            "unchanged": String(counts.unchanged), "moved": String(counts.moved), "changed": String(counts.changed),
            "actor": actor,
            "ingested": ingestedAt.postgresText, "lifecycle": lifecycle,
        ])
    }
}

extension Finding {
    /// The finding as a `finding` record.
    var record: Record {
        Record([
            "id": String(number), "project": project, "source": source, "rule": rule, "severity": severity,
            "identity": identity,
            "file": file,
            "line": line.map(String.init), "snippet": snippet, "status": status.rawValue, "reason": reason,
            "screen": screen ?? AuditArea.unmapped, "title": title, "message": message,
            "first-seen-run": firstSeenRun.map(String.init), "last-seen-run": lastSeenRun.map(String.init),
            "step": step.map(String.init), "needs": needs.isEmpty ? nil : needs.joined(separator: ","),
            "gate": gate?.description, "tier": tier.map(String.init), "assignee": assignee,
            "still-reported-run": isReportedAfterVerified ? lastSeenRun.map(String.init) : nil,
            "unmapped": unmapped?.rawValue, "excluded": excludedBy,
        ])
    }
}
