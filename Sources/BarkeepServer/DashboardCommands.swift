import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// STATUS and BURNDOWN: what the dashboard and the readiness report read.
enum DashboardCommands {
    static let all: [Command] = [status, burndown]

    static let severities = Severity.allCases.map(\.rawValue)

    /// The decimal text of 0 to 1,023, made once: STATUS writes some twenty counts for every screen.
    static let smallDecimals = (0..<1024).map { String($0) }

    /// The decimal text of `number`.
    static func decimal(_ number: Int) -> String {
        smallDecimals.indices.contains(number) ? smallDecimals[number] : String(number)
    }

    /// The encoded STATUS replies of this process, by project and arguments, each kept while its project's status
    /// version is current (`StatusCache`): a reply is the same for every role that may ask, and holds no time (the
    /// CLI works out ages). At most 256 replies and 64 MiB; a 1,000-screen project's reply is about 0.5 MB.
    static let replies = StatusCache<[UInt8]>(maximumEntries: 256, maximumCost: 64 << 20) { $0.count }

    /// `STATUS PROJECT [owner=] [not-done=yes] [sort=] [limit=]`: the dashboard; the filters choose the screen
    /// rows (and the owner rows, for `owner=`), never the totals.
    static let status = Command(
        "STATUS", positional: 1...1, keys: ["owner", "not-done", "sort", "limit"], minimumRole: .reader
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let listing = try ScreenCommands.screenListing(input)
        let version = input.session.protocolVersion
        // The token is checked in the statement that looks the status version up: a kept reply costs one round trip.
        let work: @Sendable (PostgresConnection, Int64?) throws -> CommandResult = { connection, tokenID in
            guard
                let reply = try statusReply(
                    project: project, listing: listing, version: version, checkingToken: tokenID, on: connection)
            else { return Server.revokedToken }
            return CommandResult(.bytes(reply))
        }
        let variant = variant(listing, version: version)
        guard let kept = replies.kept(project: project, variant: variant) else { return .databaseCheckingToken(work) }
        // The event loop looks the version up on its own connection, and answers without a pool thread when it holds.
        let reply = KeptReply(project: project, version: kept.version, bytes: kept.value) {
            replies.noteHit(project: project, variant: variant)
        }
        return .keptReply(reply, otherwise: work)
    }

    /// The encoded reply of `STATUS project` with `listing` in protocol `version` (compact from 3 on), from `cache`
    /// while the project's status is unchanged; nil when token `tokenID` (checked with the lookup) is revoked.
    static func statusReply(
        project: String, listing: ScreenListing, version: Int, checkingToken tokenID: Int64?,
        cache: StatusCache<[UInt8]> = replies, on connection: PostgresConnection
    ) throws -> [UInt8]? {
        try cache.value(
            project: project, variant: variant(listing, version: version), checkingToken: tokenID, on: connection
        ) { status in
            var records = status.records(listing)
            if CompactRecords.applies(to: Self.status.name, version: version) {
                records = records.map(CompactRecords.compacted)
            }
            var bytes: [UInt8] = []
            Reply.records(records).encode(into: &bytes)
            return bytes
        }
    }

    /// The protocol version and the arguments of a listing as one text, the owner (any text) last so that no two
    /// listings share one.
    static func variant(_ listing: ScreenListing, version: Int) -> String {
        [
            String(version), listing.isNotDoneOnly ? "not-done" : "all", listing.order.rawValue,
            listing.limit.map(String.init) ?? "-",
            listing.kind?.rawValue ?? "-", listing.owner.map { "=" + $0 } ?? "-",
        ].joined(separator: " ")
    }

    static let burndown = Command(BurndownRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let points = try EventLog.burndown(
                project: request.project, by: request.granularity ?? .run, on: connection)
            return CommandResult(BurndownRequest.Reply(points.map(BurndownRecord.init)), version: version)
        }
    }
}

extension WorkCounts {
    /// Appends the counts to `record`: needing work by severity (`critical` …), then the untriaged and the in
    /// progress ones by severity (`untriaged-critical` …, `in-progress-critical` …), then `blocked`.
    func append(to record: inout Record) {
        for (index, severity) in DashboardCommands.severities.enumerated() {
            record.append(severity, DashboardCommands.decimal(count(severity: index)))
        }
        for (keys, stage) in zip(CompactRecords.stageKeys, [WorkStage.untriaged, .inProgress]) {
            for index in keys.indices {
                record.append(keys[index], DashboardCommands.decimal(count(severity: index, stage: stage)))
            }
        }
        record.append("blocked", DashboardCommands.decimal(blocked))
    }
}

extension ProjectStatus {
    /// The typed records of `STATUS` (docs/protocol.md), the screen rows (and owners) `listing` picks.
    func records(_ listing: ScreenListing = ScreenListing()) -> [Record] {
        var records = [
            Record([
                "type": "project", "name": project.name, "sdk": project.sdk,
                "deployment-target": project.deploymentTarget,
                "required-poses": project.requiredPoses.joined(separator: ","),
            ])
        ]
        if let scan = lastScan {
            var record = Record(["type": "scan", "run": String(scan.number)])
            for field in scan.record.fields where field.key != "id" { record.append(field.key, field.value) }
            records.append(record)
        }
        var totals = Record(["type": "totals"])
        for status in FindingStatus.allCases { totals.append(status.rawValue, String(byStatus[status] ?? 0)) }
        let needsWork = FindingStatus.allCases.filter(\.needsWork).reduce(0) { $0 + (byStatus[$1] ?? 0) }
        var appScreens = 0
        var appScreensDone = 0
        var stepsDone = 0
        var stepsApplicable = 0
        var posesPassed = 0
        var posesRequired = 0
        for index in screens.indices {
            let tally = screens[index].tally
            if screens[index].kind == .screen {
                appScreens += 1
                appScreensDone += tally.isDone ? 1 : 0
            }
            stepsDone += tally.stepsDone
            stepsApplicable += tally.stepsApplicable
            posesPassed += tally.posesPassed
            posesRequired += screens[index].requiredPoses.count
        }
        totals.append("needs-work", String(needsWork))
        totals.append("screens", String(appScreens))
        totals.append("screens-done", String(appScreensDone))
        totals.append("steps-done", String(stepsDone))
        totals.append("steps-applicable", String(stepsApplicable))
        totals.append("poses-passed", String(posesPassed))
        totals.append("poses-required", String(posesRequired))
        totals.append("unmapped", String(unmapped.total))
        totals.append("verified-still-reported", String(verifiedReported))
        records.append(totals)
        records += blocked.map { group in
            Record(["type": "blocked", "sdk": group.sdk?.description ?? "none", "items": String(group.items)])
        }
        for summary in owners where listing.owner.map({ ScreenOwner.matches(summary.owner, filter: $0) }) ?? true {
            var record = Record([
                "type": "owner", "owner": summary.owner, "screens": String(summary.screens),
                "screens-done": String(summary.done), "needs-work": String(summary.work.total),
            ])
            summary.work.append(to: &record)
            records.append(record)
        }
        let (shown, matched) = listing.apply(Array(screens.indices)) { index in
            ScreenListing.Row(
                key: screens[index].key, kind: screens[index].kind, owner: screens[index].owner,
                isDone: screens[index].tally.isDone, needsWork: screens[index].work.total)
        }
        records.append(listing.record(matched: matched, shown: shown.count))
        records.reserveCapacity(records.count + shown.count + 1)
        for index in shown {
            let screen = screens[index]
            var record = Record([
                "type": "screen", "key": screen.key, "kind": screen.kind == .screen ? nil : screen.kind.rawValue,
                "title": screen.title, "owner": screen.owner,
            ])
            record.reserveCapacity(32)  // the fields below
            screen.work.append(to: &record)
            let tally = screen.tally
            var failed: [String] = []
            var missing: [String] = []
            for (pose, result) in zip(screen.requiredPoses, screen.poseResults) {
                if result == .failed { failed.append(pose) }
                if result == nil || result == .notRun { missing.append(pose) }
            }
            record.append("steps-done", DashboardCommands.decimal(tally.stepsDone))
            record.append("steps-applicable", DashboardCommands.decimal(tally.stepsApplicable))
            record.append("poses-passed", DashboardCommands.decimal(tally.posesPassed))
            record.append("poses-required", DashboardCommands.decimal(screen.requiredPoses.count))
            record.append("failed-poses", failed.isEmpty ? nil : failed.joined(separator: ","))
            record.append("missing-poses", missing.isEmpty ? nil : missing.joined(separator: ","))
            record.append("done", tally.isDone ? "yes" : "no")
            records.append(record)
        }
        var unmappedRecord = Record(["type": "unmapped"])
        unmapped.append(to: &unmappedRecord)
        records.append(unmappedRecord)
        return records
    }
}
