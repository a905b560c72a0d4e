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
    static let status = Command(StatusRequest.self, keepsReplies: true) { request, input in
        let project = request.project
        let listing = request.listing
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
        let reply = KeptReply(project: project, version: kept.version, bytes: kept.value, cache: replies, use: kept.use)
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
            var bytes: [UInt8] = []
            StatusReply(StatusParts(status, listing: listing)).reply(version: version).encode(into: &bytes)
            return bytes
        }
    }

    /// The protocol version and the arguments of a listing as one text, the owner (any text) last so that no two
    /// listings share one. Made once for the listings of every screen in any order (`plainVariants`): nearly every
    /// STATUS asks for one of them.
    static func variant(_ listing: ScreenListing, version: Int) -> String {
        if listing.owner == nil, listing.limit == nil, listing.kind == nil, plainVariants.indices.contains(version),
            let order = ScreenOrder.allCases.firstIndex(of: listing.order)
        {
            return plainVariants[version][listing.isNotDoneOnly ? 1 : 0][order]
        }
        return makeVariant(listing, version: version)
    }

    /// `variant` of the listings without owner, limit or kind, by protocol version (up to the newest), not-done
    /// filter (no, yes) and order (`ScreenOrder.allCases`).
    static let plainVariants = (0...ProtocolVersion.supported.upperBound).map { version in
        [false, true].map { isNotDoneOnly in
            ScreenOrder.allCases.map { order in
                makeVariant(ScreenListing(isNotDoneOnly: isNotDoneOnly, order: order), version: version)
            }
        }
    }

    private static func makeVariant(_ listing: ScreenListing, version: Int) -> String {
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
                project: request.project, by: request.granularity ?? .standard, on: connection)
            return CommandResult(BurndownRequest.Reply(points.map(BurndownRecord.init)), version: version)
        }
    }
}

extension WorkCountFields {
    /// The counts of `work`: needing work by severity, proposed and in progress by severity, blocked.
    init(_ work: WorkCounts) {
        self.init()
        for index in Severity.allCases.indices {
            needsWork[index] = work.count(severity: index)
            untriaged[index] = work.count(severity: index, stage: .untriaged)
            inProgress[index] = work.count(severity: index, stage: .inProgress)
        }
        blocked = work.blocked
    }
}

extension StatusParts {
    /// The typed records of `STATUS` (docs/protocol.md), the screen rows (and owners) `listing` picks.
    init(_ status: ProjectStatus, listing: ScreenListing = ScreenListing()) {
        self.init()
        project.name = status.project.name
        project.sdk = status.project.sdk
        project.deploymentTarget = status.project.deploymentTarget
        project.requiredPoses = status.project.requiredPoses
        if let scan = status.lastScan {
            var part = StatusScanPart()
            part.number = scan.number
            part.run = RunRecord(scan)
            scans = [part]
        }
        for (index, state) in FindingStatus.allCases.enumerated() {
            totals.byStatus[index] = status.byStatus[state] ?? 0
        }
        totals.needsWork = FindingStatus.allCases.filter(\.needsWork).reduce(0) { $0 + (status.byStatus[$1] ?? 0) }
        totals.needsWorkBySeverity = Severity.allCases.indices.map { status.work.count(severity: $0) }
        for screen in status.screens {
            let tally = screen.tally
            if screen.kind == .screen {
                totals.screens += 1
                totals.screensDone += tally.isDone ? 1 : 0
            }
            totals.stepsDone += tally.stepsDone
            totals.stepsApplicable += tally.stepsApplicable
            totals.posesPassed += tally.posesPassed
            totals.posesRequired += screen.requiredPoses.count
        }
        totals.unmapped = status.unmapped.total
        totals.verifiedStillReported = status.verifiedReported
        blocked = status.blocked.map { group in
            var part = StatusBlockedPart()
            part.sdk = group.sdk?.description ?? "none"
            part.items = group.items
            return part
        }
        for summary in status.owners
        where listing.owner.map({ ScreenOwner.matches(summary.owner, filter: $0) }) ?? true {
            var part = StatusOwnerPart()
            part.owner = summary.owner
            part.screens = summary.screens
            part.screensDone = summary.done
            part.needsWork = summary.work.total
            part.work = WorkCountFields(summary.work)
            owners.append(part)
        }
        let screens = status.screens
        let (shown, matched) = listing.apply(Array(screens.indices)) { index in
            ScreenListing.Row(
                key: screens[index].key, kind: screens[index].kind, owner: screens[index].owner,
                isDone: screens[index].tally.isDone, needsWork: screens[index].work.total)
        }
        selection.owner = listing.owner
        selection.isNotDoneOnly = listing.isNotDoneOnly ? true : nil
        selection.kind = listing.kind?.rawValue
        selection.sort = listing.order.rawValue
        selection.limit = listing.limit
        selection.matched = matched
        selection.shown = shown.count
        self.screens.reserveCapacity(shown.count)
        for index in shown {
            let screen = screens[index]
            var part = StatusScreenPart()
            part.key = screen.key
            part.kind = screen.kind == .screen ? nil : screen.kind.rawValue
            part.title = screen.title
            part.owner = screen.owner
            part.work = WorkCountFields(screen.work)
            let tally = screen.tally
            var failed: [String] = []
            var missing: [String] = []
            for (pose, result) in zip(screen.requiredPoses, screen.poseResults) {
                if result == .failed { failed.append(pose) }
                if result == nil || result == .notRun { missing.append(pose) }
            }
            part.stepsDone = tally.stepsDone
            part.stepsApplicable = tally.stepsApplicable
            part.posesPassed = tally.posesPassed
            part.posesRequired = screen.requiredPoses.count
            part.failedPoses = failed.isEmpty ? nil : failed
            part.missingPoses = missing.isEmpty ? nil : missing
            part.isDone = tally.isDone
            self.screens.append(part)
        }
        unmapped.work = WorkCountFields(status.unmapped)
    }
}
