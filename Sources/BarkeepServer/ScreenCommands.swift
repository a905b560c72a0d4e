import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// SCREEN ADD, LIST, SHOW, SET, REMOVE, USES, DISMISS, DISMISSALS, EXCLUDE and EXCLUSIONS, STEP SET and STEPS.
enum ScreenCommands {
    static let all: [Command] = [
        add, list, show, set, remove, uses, dismiss, dismissals, exclude, exclusions, step, steps, checklist,
    ]

    static let add = Command(
        "SCREEN ADD",
        positional: 2...2,
        keys: ["title", "owner", "kind"],
        requiredKeys: ["path"],
        repeatableKeys: ["path"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let key = try screenKey(input.argument(1))
        let paths = try globs(input.keywords("path"), key: "path")
        let (title, owner) = (input.keyword("title"), try ownerName(input.keyword("owner")))
        let kind = try addableKind(input.keyword("kind")) ?? .screen
        let actor = input.session.actor
        return .database { connection in
            let (screen, moved) = try ScreenStore.add(
                project: project, key: key, kind: kind, title: title, owner: owner, paths: paths, actor: actor,
                on: connection)
            var record = screen.record
            record.append("reattributed", String(moved))
            return CommandResult(.records([record]))
        }
    }

    /// `SCREEN LIST PROJECT [owner=] [not-done=yes] [sort=] [limit=] [kind=]`: the rows a listing picks, in its
    /// order; `OK matched=N count=N`.
    static let list = Command(
        "SCREEN LIST", positional: 1...1, keys: ["owner", "not-done", "sort", "limit", "kind"], minimumRole: .reader
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let listing = try screenListing(input, allowsKind: true)
        return .database { connection in
            let summaries = try ScreenStore.list(project: project, on: connection)
            let (shown, matched) = listing.apply(summaries) { summary in
                ScreenListing.Row(
                    key: summary.screen.key, kind: summary.screen.kind, owner: summary.screen.owner,
                    isDone: summary.readiness.isDone, needsWork: summary.openFindings)
            }
            return CommandResult(
                .summarizedRecords(shown.map(\.record), summary: Record(["matched": String(matched)])))
        }
    }

    static let show = Command(
        "SCREEN SHOW", positional: 2...2, arguments: [.project, .screenKey], minimumRole: .reader
    ) { input in
        let (project, key) = (input.argument(0), input.argument(1))
        return .database { connection in
            let summary = try ScreenStore.show(project: project, key: key, on: connection)
            let findings = try FindingStore.list(
                project: project, query: FindingQuery(statuses: FindingQuery.defaultStatuses, screens: [key]),
                on: connection)
            let poses = try PoseStore.matrix(project: project, screen: key, on: connection)
            var records = [Record(["type": "screen"]).merging(summary.record)]
            records += summary.readiness.steps.map { Record(["type": "step"]).merging($0.record(screen: key)) }
            records += poses.map { Record(["type": "pose"]).merging($0.record) }
            records += findings.map { Record(["type": "finding"]).merging($0.record) }
            records += try ScreenStore.history(project: project, key: key, on: connection).map {
                Record(["type": "event"]).merging($0.record)
            }
            records += summary.readiness.reasons.map { reason in
                Record(["type": "why", "topic": reason.topic, "text": reason.description])
            }
            return CommandResult(.records(records))
        }
    }

    /// `SCREEN SET PROJECT KEY …` changes one screen; `SCREEN SET PROJECT screens=GLOB [unowned=yes] owner=…
    /// poses=… [dry-run=yes]` every row whose key the glob matches (and that no one owns), each taking what its kind
    /// allows (`skipped=`, `why=`).
    static let set = Command(
        "SCREEN SET",
        positional: 1...2,
        arguments: [.project, .screenKey],
        keys: ["title", "owner", "poses", "kind", "screens", "unowned", "dry-run"],
        repeatableKeys: ["path", "add-path", "remove-path"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let picked = try screenSelection(
            key: input.request.arguments.count > 1 ? input.argument(1) : nil, input, keys: ["screens"])
        let selection: ScreenSelection
        if try yesNo(input.keyword("unowned"), key: "unowned") {
            guard case .keys(let glob) = picked else {
                throw CommandError(.badArgument, "unowned=yes narrows screens=GLOB: give screens= with it")
            }
            selection = .unownedKeys(glob)
        } else {
            selection = picked
        }
        let isDryRun = try yesNo(input.keyword("dry-run"), key: "dry-run")
        let replacing = input.keywords("path")
        let change = ScreenChange(
            title: input.keyword("title"),
            owner: try ownerName(input.keyword("owner")),
            paths: replacing.isEmpty ? nil : try globs(replacing, key: "path"),
            addPaths: try globs(input.keywords("add-path"), key: "add-path"),
            removePaths: try globs(input.keywords("remove-path"), key: "remove-path"),
            poses: try poseRequirement(input.keyword("poses")),
            kind: try addableKind(input.keyword("kind"))
        )
        guard change != ScreenChange() else {
            throw CommandError(
                .badArgument, "SCREEN SET needs title=, owner=, path=, add-path=, remove-path=, poses= or kind=")
        }
        let actor = input.session.actor
        return .database { connection in
            let updates = try ScreenStore.update(
                project: project, screens: selection, change: change, actor: actor, isDryRun: isDryRun,
                on: connection)
            guard !selection.isSingleKey || isDryRun else {
                return CommandResult(
                    .records(
                        updates.map { update in
                            var record = update.screen.record
                            record.append("reattributed", String(update.reattributed))
                            return record
                        }))
            }
            return CommandResult(
                .summarizedRecords(
                    updates.map { update in
                        var record = update.screen.record
                        record.append("changed", update.isChanged ? "yes" : "no")
                        record.append("from-owner", update.before.owner)
                        record.append("from-poses", update.before.record["poses"])
                        if !update.skipped.isEmpty {
                            record.append("skipped", update.skipped.map(\.rawValue).joined(separator: ","))
                            record.append("why", update.reason)
                        }
                        return record
                    },
                    summary: Record([
                        "changed": String(updates.filter(\.isChanged).count),
                        "skipped": String(updates.filter { !$0.skipped.isEmpty }.count),
                        "dry-run": isDryRun ? "yes" : nil,
                    ])))
        }
    }

    /// `SCREEN REMOVE PROJECT KEY`, or `SCREEN REMOVE PROJECT screens=GLOB`: every screen and component whose key
    /// the glob matches (the app area is skipped). With a glob or `dry-run=yes`, a record per picked row with what
    /// goes with it (`findings`, `steps-done`, `pose-results`) and `removed=yes|no` (`why=` when left).
    static let remove = Command(
        "SCREEN REMOVE", positional: 1...2, arguments: [.project, .screenKey], keys: ["screens", "dry-run"],
        minimumRole: .writer
    ) {
        input throws(CommandError) in
        let project = input.argument(0)
        let selection = try screenSelection(
            key: input.request.arguments.count > 1 ? input.argument(1) : nil, input, keys: ["screens"])
        let isDryRun = try yesNo(input.keyword("dry-run"), key: "dry-run")
        let actor = input.session.actor
        return .database { connection in
            let removals = try ScreenStore.remove(
                project: project, screens: selection, actor: actor, isDryRun: isDryRun, on: connection)
            let findings = removals.filter { $0.reason == nil }.map(\.findings).reduce(0, +)
            if case .key(let key) = selection, !isDryRun {
                return CommandResult(.ok(["removed": key, "findings": String(findings)]))
            }
            return CommandResult(
                .summarizedRecords(
                    removals.map { removal in
                        Record([
                            "key": removal.key, "kind": removal.kind.rawValue,
                            "paths": removal.paths.joined(separator: ","), "findings": String(removal.findings),
                            "steps-done": String(removal.stepsDone), "pose-results": String(removal.poseResults),
                            "removed": removal.reason == nil ? "yes" : "no", "why": removal.reason,
                        ])
                    },
                    summary: Record([
                        "findings": String(findings),
                        "removed": String(removals.filter { $0.reason == nil }.count),
                        "dry-run": isDryRun ? "yes" : nil,
                    ])))
        }
    }

    /// `STEP SET PROJECT SCREEN STEP STATE` sets one screen's step; `STEP SET PROJECT STEP STATE` with
    /// `screens=GLOB`, `owner=NAME` or `all=yes` (and `dry-run=yes` to change nothing) every picked screen's,
    /// leaving alone (and reporting) those where `done` is refused and the components and app area it picked.
    static let step = Command(
        "STEP SET", positional: 3...4, arguments: [.project, .screenKey],
        keys: ["note", "screens", "owner", "all", "dry-run"], minimumRole: .writer
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let isKeyed = input.request.arguments.count == 4
        let selection = try screenSelection(key: isKeyed ? input.argument(1) : nil, input)
        let isDryRun = try yesNo(input.keyword("dry-run"), key: "dry-run")
        let (step, stateText) =
            isKeyed ? (input.argument(2), input.argument(3)) : (input.argument(1), input.argument(2))
        guard let state = StepState(rawValue: stateText) else {
            throw CommandError(
                .badArgument, "a step state is " + StepState.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let note = input.keyword("note")
        let actor = input.session.actor
        return .database { connection in
            let changes = try StepStore.set(
                project: project, screens: selection, step: step, to: state, note: note, actor: actor,
                isDryRun: isDryRun, on: connection)
            let records = changes.map { change in
                guard change.outcome != .skipped else {
                    return Record([
                        "screen": change.screen, "step": String(change.status.step.number),
                        "key": change.status.step.key, "outcome": change.outcome.rawValue, "why": change.reason,
                    ])
                }
                var record = change.status.record(screen: change.screen)
                record.append("outcome", change.outcome.rawValue)
                record.append("from", change.previous.rawValue)
                if change.outcome == .refused,
                    let refusal = change.status.step.refusalOfDone(on: change.screen, blockers: change.status.blockers)
                {
                    record.append("refusal", refusal)
                }
                return record
            }
            guard !isKeyed || isDryRun else { return CommandResult(.records(records)) }
            func count(_ outcome: StepOutcome) -> String { String(changes.filter { $0.outcome == outcome }.count) }
            return CommandResult(
                .summarizedRecords(
                    records,
                    summary: Record([
                        "changed": count(.changed), "unchanged": count(.unchanged), "refused": count(.refused),
                        "skipped": count(.skipped), "dry-run": isDryRun ? "yes" : nil,
                    ])))
        }
    }

    /// `STEPS PROJECT`: every checklist step of every screen, for the readiness report.
    static let steps = Command("STEPS", positional: 1...1, minimumRole: .reader) { input in
        let project = input.argument(0)
        return .database { connection in
            CommandResult(
                .records(
                    try ScreenStore.list(project: project, on: connection).flatMap { summary in
                        summary.readiness.steps.map { $0.record(screen: summary.screen.key) }
                    }
                )
            )
        }
    }

    /// `CHECKLIST`: the twelve steps of the audit checklist, each with the scanner rules that evidence it.
    static let checklist = Command("CHECKLIST", positional: 0...0, arguments: [], minimumRole: .reader) { _ in
        .database { _ in
            CommandResult(
                .records(
                    ChecklistStep.all.map { step in
                        Record([
                            "step": String(step.number), "key": step.key,
                            "rules": step.rules.isEmpty ? nil : step.rules.joined(separator: ","),
                        ])
                    }
                )
            )
        }
    }

    /// The `kind=` value of SCREEN ADD and SCREEN SET: `screen` or `component` (the app area is built in); nil when
    /// not given.
    private static func addableKind(_ text: String?) throws(CommandError) -> ScreenKind? {
        guard let text else { return nil }
        let kinds: [ScreenKind] = [.screen, .component]
        guard let kind = ScreenKind(rawValue: text), kinds.contains(kind) else {
            throw CommandError(.badArgument, "kind must be " + kinds.map(\.rawValue).joined(separator: " or "))
        }
        return kind
    }

    /// The `owner=` value of SCREEN ADD and SCREEN SET; `BADARG` for the word that means no owner
    /// (`ScreenOwner.refusal(ofOwner:)`).
    private static func ownerName(_ value: String?) throws(CommandError) -> String? {
        if let value, let refusal = ScreenOwner.refusal(ofOwner: value) { throw CommandError(.badArgument, refusal) }
        return value
    }

    private static func screenKey(_ key: String) throws(CommandError) -> String {
        guard Names.isValidScreenKey(key) else {
            throw CommandError(
                .badArgument,
                "a screen key is 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit, "
                    + "and not '\(AuditArea.unmapped)' or '\(AuditArea.app)'")
        }
        return key
    }

    private static func globs(_ globs: [String], key: String) throws(CommandError) -> [String] {
        for glob in globs where !Names.isValidGlob(glob) {
            throw CommandError(
                .badArgument, "\(key) must be a path glob of up to 1024 bytes without commas or control characters")
        }
        return globs
    }
}

extension Record {
    /// This record's fields followed by `other`'s.
    func merging(_ other: Record) -> Record {
        var merged = self
        for field in other.fields { merged.append(field.key, field.value) }
        return merged
    }
}

extension ScreenSummary {
    /// The screen as a `screen` record.
    var record: Record {
        let steps = readiness.stepCounts
        return screen.record.merging(
            Record([
                "findings": String(openFindings),
                "steps-done": String(steps.done), "steps-applicable": String(steps.applicable),
                "poses-passed": String(readiness.passedPoses.count),
                "poses-required": String(readiness.requiredPoses.count),
                "done": readiness.isDone ? "yes" : "no",
            ]))
    }
}

extension Screen {
    /// The screen alone as a `screen` record (after a change).
    var record: Record {
        Record([
            "key": key, "kind": kind.rawValue, "title": title, "owner": owner, "paths": paths.joined(separator: ","),
            "poses": requiredPoses.map { $0.isEmpty ? "none" : $0.joined(separator: ",") },
            "uses": uses.isEmpty ? nil : uses.joined(separator: ","),
            "components": kind == .component && !components.isEmpty ? components.joined(separator: ",") : nil,
            "created": createdAt.postgresText,
        ])
    }
}

extension StepStatus {
    /// The step as a `step` record.
    func record(screen: String) -> Record {
        Record([
            "screen": screen, "step": String(step.number), "key": step.key, "state": effective.rawValue,
            "recorded": recorded.rawValue,
            "blockers": blockers.isEmpty ? nil : blockers.map { String($0.number) }.joined(separator: ","),
        ])
    }
}

extension PoseCell {
    /// The cell as a `pose` record: the latest result's fields, or `result=none`.
    var record: Record {
        guard let latest else { return Record(["screen": screen, "pose": pose, "result": "none"]) }
        return latest.record
    }
}

extension PoseRecord {
    /// The result as a `pose` record.
    var record: Record {
        Record([
            "screen": screen, "pose": pose, "result": result.rawValue, "screenshot": screenshot,
            "finding": finding.map(String.init), "reason": reason, "build": build, "device": device,
            "actor": actor, "recorded": recordedAt.postgresText,
        ])
    }
}
