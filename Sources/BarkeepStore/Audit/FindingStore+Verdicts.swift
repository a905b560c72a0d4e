import BarkeepCore

/// One person's verdict on one finding — `FINDING SET PROJECT N STATUS [reason=…]` — as a group commit writes it
/// together with the others on the same project.
public struct FindingVerdict: Sendable, Equatable {
    /// The finding's number.
    public var number: Int
    /// The status asked for.
    public var status: FindingStatus
    /// Why (nil: no reason given).
    public var reason: String?
    /// The role of the person giving it.
    public var role: Role
    /// Who: `token:NAME` or `local:USER`.
    public var actor: String

    /// Creates a verdict.
    public init(number: Int, status: FindingStatus, reason: String?, role: Role, actor: String) {
        self.number = number
        self.status = status
        self.reason = reason
        self.role = role
        self.actor = actor
    }

    /// What it weighs against `GroupCommitLimit.bytes`: its text.
    public var bytes: Int { (reason?.utf8.count ?? 0) + actor.utf8.count }
}

extension FindingStore {
    /// Applies `verdict` alone, in a transaction of its own: what a single `FINDING SET` always did (a refusal is
    /// in the change, an unknown number `notFound`).
    public static func apply(_ verdict: FindingVerdict, project: String, on connection: PostgresConnection) throws
        -> FindingChange
    {
        let result = try setStatus(
            project: project, of: .numbers([verdict.number]), to: verdict.status, reason: verdict.reason,
            role: verdict.role, actor: verdict.actor, isDryRun: false, on: connection)
        guard let change = result.changes.first else {
            throw StoreError.notFound("no finding \(verdict.number) in project '\(project)'")
        }
        return change
    }

    /// Applies `verdicts` to `projectName` in their order, in one transaction under the project's sync lock, with
    /// the result, rows and events of applying each alone (`apply`) one after the other: a verdict sees the
    /// finding as the ones before it in the batch left it, and its change shows the finding as it left it. Per
    /// verdict: its change (a refusal inside, as for one), or `notFound` for a number the project lacks — an
    /// invalid verdict costs the others nothing, as each is decided (FindingLifecycle) before anything is written.
    ///
    /// Set-based: the findings are read once; the writes go in rounds, a round holding each finding's next write
    /// (one UPDATE and one read of the findings it changed, as the replies show them); the events are one INSERT,
    /// in the verdicts' order, under one events lock, with one notification.
    public static func setStatuses(
        project projectName: String,
        _ verdicts: [FindingVerdict],
        on connection: PostgresConnection
    ) throws -> [Result<FindingChange, StoreError>] {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            var numbers: [Int] = []
            for verdict in verdicts where !numbers.contains(verdict.number) { numbers.append(verdict.number) }
            let missing = Set(try FindingSelection.missing(numbers, project: project, on: connection))
            let present = numbers.filter { !missing.contains($0) }
            // Each finding as the verdicts so far left it, and as it read after each of its writes (0: before any).
            var current: [Int: Finding] = [:]
            if !present.isEmpty {
                for finding in try list(.numbers(present), project: project, on: connection) {
                    current[finding.number] = finding
                }
            }
            var versions = current.mapValues { [$0] }
            let facts = try facts(
                for: Array(current.values), statuses: verdicts.map(\.status), project: project, on: connection)

            var outcomes: [(change: FindingChange, version: Int)?] = []
            var rounds: [[StatusWrite]] = []
            var writes: [StatusWrite] = []
            var written: [Int: Int] = [:]
            for verdict in verdicts {
                guard var finding = current[verdict.number] else {
                    outcomes.append(nil)
                    continue
                }
                let (change, write) = decide(
                    finding, to: verdict.status, reason: verdict.reason, role: verdict.role, actor: verdict.actor,
                    facts: facts, project: project, isDryRun: false)
                var version = written[verdict.number, default: 0]
                if let write {
                    if rounds.count == version { rounds.append([]) }
                    rounds[version].append(write)
                    writes.append(write)
                    version += 1
                    written[verdict.number] = version
                    finding.status = write.status
                    finding.reason = write.reason
                    current[verdict.number] = finding
                }
                outcomes.append((change, version))
            }
            for round in rounds {
                try store(round, project: project, on: connection)
                let ids = Set(round.map(\.id))
                let changed = current.values.filter { ids.contains($0.id) }.map(\.number)
                for finding in try list(.numbers(changed), project: project, on: connection) {
                    versions[finding.number, default: []].append(finding)
                }
            }
            try appendStatusEvents(writes, project: project, on: connection)
            return zip(verdicts, outcomes).map { verdict, outcome in
                guard let outcome else {
                    return .failure(FindingSelection.notFound([verdict.number], project: project))
                }
                var change = outcome.change
                change.finding = versions[verdict.number]?[outcome.version] ?? change.finding
                return .success(change)
            }
        }
    }
}
