import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// SCREEN ADD, LIST, SHOW, SET, REMOVE, USES, DISMISS, DISMISSALS, EXCLUDE and EXCLUSIONS, STEP SET and STEPS.
enum ScreenCommands {
    static let all: [Command] = [
        add, list, show, set, remove, uses, dismiss, dismissals, exclude, exclusions, step, steps, checklist,
    ]

    static let add = Command(ScreenAddRequest.self) { request, input in
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let (screen, moved) = try ScreenStore.add(
                project: request.project, key: request.key, kind: request.kind?.kind ?? .screen, title: request.title,
                owner: request.owner, paths: request.paths, actor: actor, on: connection)
            var record = ScreenRecord(screen)
            record.reattributed = moved
            return CommandResult(ScreenAddRequest.Reply([record]), version: version)
        }
    }

    /// `SCREEN LIST PROJECT [owner=] [not-done=yes] [sort=] [limit=] [kind=]`: the rows a listing picks, in its
    /// order; `OK matched=N count=N`.
    static let list = Command(ScreenListRequest.self) { request, input in
        let listing = request.listing
        let version = input.session.protocolVersion
        return .database { connection in
            let summaries = try ScreenStore.list(project: request.project, on: connection)
            let (shown, matched) = listing.apply(summaries) { summary in
                ScreenListing.Row(
                    key: summary.screen.key, kind: summary.screen.kind, owner: summary.screen.owner,
                    isDone: summary.readiness.isDone, needsWork: summary.openFindings)
            }
            return CommandResult(
                ScreenListRequest.Reply(shown.map(ScreenRecord.init), summary: ScreenListSummary(matched: matched)),
                version: version)
        }
    }

    /// `SCREEN SHOW PROJECT KEY`: the screen, its steps, its poses' latest results, its findings needing work, its
    /// history and why it is not done.
    static let show = Command(ScreenShowRequest.self) { request, input in
        let (project, key) = (request.project, request.key)
        let version = input.session.protocolVersion
        return .database { connection in
            let summary = try ScreenStore.show(project: project, key: key, on: connection)
            let findings = try FindingStore.list(
                project: project, query: FindingQuery(statuses: FindingQuery.defaultStatuses, screens: [key]),
                on: connection)
            let poses = try PoseStore.matrix(project: project, screen: key, on: connection)
            let history = try ScreenStore.history(project: project, key: key, on: connection)
            let detail = ScreenDetail(
                screen: ScreenRecord(summary), steps: summary.readiness.steps.map { StepRecord($0, screen: key) },
                poses: poses.map(PoseResultRecord.init), findings: findings.map(FindingRecord.init),
                history: history.map(EventFields.init),
                why: summary.readiness.reasons.map { ScreenReasonRecord(topic: $0.topic, text: $0.description) })
            return CommandResult(ScreenShowRequest.Reply(detail), version: version)
        }
    }

    /// `SCREEN SET PROJECT KEY …` changes one screen; `SCREEN SET PROJECT screens=GLOB [unowned=yes] owner=…
    /// poses=… [dry-run=yes]` every row whose key the glob matches (and that no one owns), each taking what its kind
    /// allows (`skipped=`, `why=`).
    static let set = Command(ScreenSetRequest.self) { request, input throws(CommandError) in
        let picked = try screenSelection(
            key: request.key, screens: request.screens, owner: nil, all: nil, keys: ["screens"])
        let selection: ScreenSelection
        if request.unowned == true {
            guard case .keys(let glob) = picked else {
                throw CommandError(.badArgument, "unowned=yes narrows screens=GLOB: give screens= with it")
            }
            selection = .unownedKeys(glob)
        } else {
            selection = picked
        }
        let isDryRun = request.isDryRun
        let change = ScreenChange(
            title: request.title,
            owner: request.owner,
            paths: request.paths.isEmpty ? nil : request.paths,
            addPaths: request.addPaths,
            removePaths: request.removePaths,
            poses: try poseRequirement(request.poses),
            kind: request.kind?.kind
        )
        guard change != ScreenChange() else {
            throw CommandError(
                .badArgument, "SCREEN SET needs title=, owner=, path=, add-path=, remove-path=, poses= or kind=")
        }
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let updates = try ScreenStore.update(
                project: request.project, screens: selection, change: change, actor: actor, isDryRun: isDryRun,
                on: connection)
            guard !selection.isSingleKey || isDryRun else {
                let rows = updates.map { update in
                    var record = ScreenRecord(update.screen)
                    record.reattributed = update.reattributed
                    return record
                }
                return CommandResult(ScreenSetRequest.Reply(rows, summary: nil), version: version)
            }
            let rows = updates.map { update in
                var record = ScreenRecord(update.screen)
                record.isChanged = update.isChanged
                record.fromOwner = update.before.owner
                record.fromPoses = ScreenRecord(update.before).poses
                if !update.skipped.isEmpty {
                    record.skipped = update.skipped.map(\.rawValue).joined(separator: ",")
                    record.why = update.reason
                }
                return record
            }
            var summary = ScreenSetSummary()
            summary.changed = updates.filter(\.isChanged).count
            summary.skipped = updates.filter { !$0.skipped.isEmpty }.count
            summary.dryRun = isDryRun ? true : nil
            return CommandResult(ScreenSetRequest.Reply(rows, summary: summary), version: version)
        }
    }

    /// `SCREEN REMOVE PROJECT KEY`, or `SCREEN REMOVE PROJECT screens=GLOB`: every screen and component whose key
    /// the glob matches (the app area is skipped). With a glob or `dry-run=yes`, a record per picked row with what
    /// goes with it (`findings`, `steps-done`, `pose-results`) and `removed=yes|no` (`why=` when left).
    static let remove = Command(ScreenRemoveRequest.self) { request, input throws(CommandError) in
        let selection = try screenSelection(
            key: request.key, screens: request.screens, owner: nil, all: nil, keys: ["screens"])
        let isDryRun = request.isDryRun
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let removals = try ScreenStore.remove(
                project: request.project, screens: selection, actor: actor, isDryRun: isDryRun, on: connection)
            let findings = removals.filter { $0.reason == nil }.map(\.findings).reduce(0, +)
            if case .key(let key) = selection, !isDryRun {
                var removed = ScreenRemoved()
                removed.removed = key
                removed.findings = findings
                return CommandResult(ScreenRemoveRequest.Reply.ok(removed), version: version)
            }
            var summary = RemovalSummary()
            summary.findings = findings
            summary.removed = removals.filter { $0.reason == nil }.count
            summary.dryRun = isDryRun ? true : nil
            return CommandResult(
                ScreenRemoveRequest.Reply.records(removals.map(RemovalRecord.init), summary: summary),
                version: version)
        }
    }

    /// `STEP SET PROJECT SCREEN STEP STATE` sets one screen's step; `STEP SET PROJECT STEP STATE` with
    /// `screens=GLOB`, `owner=NAME` or `all=yes` (and `dry-run=yes` to change nothing) every picked screen's,
    /// leaving alone (and reporting) those where `done` is refused and the components and app area it picked.
    static let step = Command(StepSetRequest.self) { request, input throws(CommandError) in
        let selection = try screenSelection(
            key: request.screen, screens: request.screens, owner: request.owner, all: request.all)
        let isDryRun = request.isDryRun
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let changes = try StepStore.set(
                project: request.project, screens: selection, step: request.step.text, to: request.state,
                note: request.note, actor: actor, isDryRun: isDryRun, on: connection)
            let rows = changes.map(StepSetRow.init)
            guard request.screen == nil || isDryRun else {
                return CommandResult(StepSetRequest.Reply(rows, summary: nil), version: version)
            }
            func count(_ outcome: StepOutcome) -> Int { changes.filter { $0.outcome == outcome }.count }
            var summary = StepSetSummary()
            summary.changed = count(.changed)
            summary.unchanged = count(.unchanged)
            summary.refused = count(.refused)
            summary.skipped = count(.skipped)
            summary.dryRun = isDryRun ? true : nil
            return CommandResult(StepSetRequest.Reply(rows, summary: summary), version: version)
        }
    }

    /// `STEPS PROJECT`: every checklist step of every screen, for the readiness report.
    static let steps = Command(StepsRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let steps = try ScreenStore.list(project: request.project, on: connection).flatMap { summary in
                summary.readiness.steps.map { StepRecord($0, screen: summary.screen.key) }
            }
            return CommandResult(StepsRequest.Reply(steps), version: version)
        }
    }

    /// `CHECKLIST`: the twelve steps of the audit checklist, each with the scanner rules that evidence it.
    static let checklist = Command(ChecklistRequest.self) { _, input in
        let version = input.session.protocolVersion
        return .database { _ in
            CommandResult(ChecklistRequest.Reply(ChecklistStep.all.map(ChecklistStepRecord.init)), version: version)
        }
    }
}

extension ScreenRecord {
    /// The screen alone (after a change).
    init(_ screen: Screen) {
        self.init()
        key = screen.key
        kind = screen.kind
        title = screen.title
        owner = screen.owner
        paths = screen.paths
        poses = screen.requiredPoses.map { $0.isEmpty ? "none" : $0.joined(separator: ",") }
        uses = screen.uses.isEmpty ? nil : screen.uses
        components = screen.kind == .component && !screen.components.isEmpty ? screen.components : nil
        created = screen.createdAt.postgresText
    }

    /// The screen with where it stands.
    init(_ summary: ScreenSummary) {
        self.init(summary.screen)
        let steps = summary.readiness.stepCounts
        findings = summary.openFindings
        stepsDone = steps.done
        stepsApplicable = steps.applicable
        posesPassed = summary.readiness.passedPoses.count
        posesRequired = summary.readiness.requiredPoses.count
        isDone = summary.readiness.isDone
    }
}

extension RemovalRecord {
    /// The row removed (or left, with why).
    init(_ removal: ScreenRemoval) {
        self.init()
        key = removal.key
        kind = removal.kind
        paths = removal.paths
        findings = removal.findings
        stepsDone = removal.stepsDone
        poseResults = removal.poseResults
        isRemoved = removal.reason == nil
        why = removal.reason
    }
}

extension StepRecord {
    /// The step of `screen`.
    init(_ status: StepStatus, screen: String) {
        self.init()
        self.screen = screen
        step = status.step.number
        key = status.step.key
        state = status.effective
        recorded = status.recorded
        blockers = status.blockers.isEmpty ? nil : status.blockers.map { String($0.number) }
    }
}

extension StepSetRow {
    /// The row of a change: the step with its outcome, or the row skipped.
    init(_ change: StepChange) {
        guard change.outcome != .skipped else {
            var skipped = StepSkippedRecord()
            skipped.screen = change.screen
            skipped.step = change.status.step.number
            skipped.key = change.status.step.key
            skipped.outcome = change.outcome.rawValue
            skipped.why = change.reason ?? ""
            self = .second(skipped)
            return
        }
        var record = StepChangeRecord()
        record.step = StepRecord(change.status, screen: change.screen)
        record.outcome = change.outcome.rawValue
        record.from = change.previous
        if change.outcome == .refused {
            record.refusal = change.status.step.refusalOfDone(on: change.screen, blockers: change.status.blockers)
        }
        self = .first(record)
    }
}

extension ChecklistStepRecord {
    /// The step with its rules.
    init(_ checklistStep: ChecklistStep) {
        self.init()
        step = checklistStep.number
        key = checklistStep.key
        rules = checklistStep.rules.isEmpty ? nil : checklistStep.rules
    }
}
