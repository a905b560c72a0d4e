import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// FINDING SET, FINDING ASSIGN, FINDING COMMENT and MINE: triage, one finding or many, and people.
enum TriageCommands {
    /// The commands, for the command table.
    static let all: [Command] = [set, assign, comment, mine]

    /// `FINDING SET PROJECT N[,N…] STATUS [reason=…] [dry-run=yes]`, or
    /// `FINDING SET PROJECT STATUS where=yes FILTERS… [reason=…] [dry-run=yes]`.
    static let set = Command(FindingSetRequest.self) { request, input throws(CommandError) in
        let target = try BulkTarget(
            project: request.project, numbers: request.numbers, isWhere: request.isWhere, filters: request.filters,
            isDryRun: request.isDryRun ?? false)
        let settable = FindingLifecycle.personStatuses
        guard let status = FindingStatus(rawValue: request.newStatus), settable.contains(status) else {
            throw CommandError(
                .badArgument, "status must be one of " + settable.map(\.rawValue).joined(separator: ", "),
                key: "new-status")
        }
        let reason = request.reason.flatMap { $0.isEmpty ? nil : $0 }
        if status.requiresReason && reason == nil {
            throw CommandError(.badArgument, "\(status.rawValue) needs reason=…", key: "reason")
        }
        let (actor, role, version) = (input.session.actor, input.session.role ?? .reader, input.session.protocolVersion)
        if target.isSingle, case .numbers(let numbers) = target.selector, let number = numbers.first {
            // One finding: written with the other verdicts on the project that arrive meanwhile (group commit).
            let verdict = FindingVerdict(number: number, status: status, reason: reason, role: role, actor: actor)
            return .verdict(
                GroupedVerdict(project: target.project, verdict: verdict) { change in
                    try target.reply(BulkChange(changes: [change], isDryRun: false), version: version)
                })
        }
        return .database { connection in
            let result = try FindingStore.setStatus(
                project: target.project, of: target.selector, to: status, reason: reason, role: role, actor: actor,
                isDryRun: target.isDryRun, on: connection)
            return try target.reply(result, version: version)
        }
    }

    /// `FINDING ASSIGN PROJECT N[,N…] NAME|none [dry-run=yes]`, or
    /// `FINDING ASSIGN PROJECT NAME|none where=yes FILTERS… [dry-run=yes]`.
    static let assign = Command(FindingAssignRequest.self) { request, input throws(CommandError) in
        let target = try BulkTarget(
            project: request.project, numbers: request.numbers, isWhere: request.isWhere, filters: request.filters,
            isDryRun: request.isDryRun ?? false)
        let assignee: String?
        if request.name.lowercased() == Assignee.none {
            assignee = nil
        } else if Assignee.isValid(request.name) {
            assignee = request.name
        } else {
            throw CommandError(.badArgument, Assignee.rule(for: request.name), key: "name")
        }
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let result = try FindingStore.assign(
                project: target.project, of: target.selector, to: assignee, actor: actor,
                isDryRun: target.isDryRun, on: connection)
            return try target.reply(result, version: version)
        }
    }

    /// `FINDING COMMENT PROJECT N TEXT`: the comment's event record.
    static let comment = Command(FindingCommentRequest.self) { request, input in
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let event = try FindingStore.comment(
                project: request.project, number: request.number.value, text: request.text, actor: actor,
                on: connection)
            return CommandResult(FindingCommentRequest.Reply([EventFields(event)]), version: version)
        }
    }

    /// `MINE PROJECT [as=NAME]`: the screens NAME owns and the findings needing work assigned to NAME (by default
    /// the session's person: `token:NAME` or `local:USER`).
    static let mine = Command(MineRequest.self) { request, input throws(CommandError) in
        let name: String
        if let given = request.person {
            name = given
        } else if let person = Assignee.name(ofActor: input.session.actor) {
            name = person
        } else {
            throw CommandError(
                .badArgument, "MINE needs as=NAME: this session is no one's (\(input.session.actor))", key: "as")
        }
        let query = FindingQuery(statuses: FindingQuery.defaultStatuses, assignee: .name(name))
        let version = input.session.protocolVersion
        // Streamed as FINDINGS is: the screens lead the first page, the findings follow a page at a time; each page
        // is encoded as the reply's parts.
        return .streamed(
            StreamedReply(
                summary: MineSummary(name: name).record(version: version), positions: FindingListPosition.self
            ) { connection, position, page in
                var screens: [ScreenRecord] = []
                if position == nil {
                    screens = try ScreenStore.list(project: request.project, on: connection)
                        .filter { ScreenOwner.matches($0.screen.owner, kind: $0.screen.kind, filter: name) }
                        .map(ScreenRecord.init)
                }
                try FindingStore.pages(
                    project: request.project, query: query, after: position, pageSize: StreamedReply.recordsPerPage,
                    on: connection
                ) { findings, isLast in
                    let parts = MineParts(screens: screens, findings: findings.map(FindingRecord.init))
                    screens = []
                    return try page(parts.records(version: version), findings.last?.listPosition, isLast)
                }
            })
    }
}

/// What a command changing one finding or many names: the project, the findings (numbers, or `where=yes` and the
/// filter keys) and whether it is a dry run.
struct BulkTarget: Sendable {
    /// The project.
    let project: String
    /// The findings.
    let selector: FindingSelector
    /// `dry-run=yes`: report what would change, change nothing.
    let isDryRun: Bool
    /// One number, no dry run: a refusal is the command's error, as for one finding it always was.
    let isSingle: Bool

    /// Reads `PROJECT N[,N…] VALUE`, or `PROJECT VALUE where=yes FILTERS…`, as the request decoded them.
    init(
        project: String, numbers: FindingNumberList?, isWhere: Bool?, filters: FindingFilters, isDryRun: Bool
    ) throws(CommandError) {
        self.project = project
        self.isDryRun = isDryRun
        if isWhere == true {
            guard numbers == nil else {
                throw CommandError(.badArgument, "with where=yes the findings are chosen by keys: give PROJECT VALUE")
            }
            selector = .query(try FindingCommands.query(filters))
            isSingle = false
        } else {
            guard let numbers else {
                throw CommandError(.badArgument, "give PROJECT N[,N…] VALUE, or PROJECT VALUE where=yes and filters")
            }
            if let key = filters.keywords.first?.key {
                throw CommandError(.badArgument, "\(key)= chooses findings only with where=yes")
            }
            var unique: [Int] = []
            for number in numbers.numbers where !unique.contains(number) { unique.append(number) }
            selector = .numbers(unique)
            isSingle = numbers.numbers.count == 1 && !isDryRun
        }
    }

    /// The reply: a `finding` record per selected finding with `change` (and `from`, `to`, `refusal`), then
    /// `OK changed=N unchanged=N refused=N dry-run=yes|no count=N` (a dry run counts `would-change` as changed).
    /// For one number without a dry run, a refusal is the error it always was.
    func reply(_ result: BulkChange, version: Int) throws -> CommandResult {
        if isSingle, let refusal = result.changes.first?.refusal { throw StoreError(refusal) }
        let summary = BulkChangeSummary(
            changed: result.count(.changed) + result.count(.wouldChange), unchanged: result.count(.unchanged),
            refused: result.count(.refused), isDryRun: result.isDryRun)
        return CommandResult(
            BulkChangeReply(result.changes.map(FindingChangeRecord.init), summary: summary), version: version)
    }
}

extension FindingChangeRecord {
    /// The finding's record with what happened to it: `change`, `from`, `to`, `refusal`.
    init(_ change: FindingChange) {
        self.init()
        finding = FindingRecord(change.finding)
        self.change = change.outcome.rawValue
        from = change.from
        to = change.to
        refusal = change.refusal?.message
    }
}
