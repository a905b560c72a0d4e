import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// SCREEN ADD, LIST, SHOW, SET, REMOVE, USES, DISMISS and DISMISSALS, STEP SET and STEPS.
enum ScreenCommands {
    static let all: [Command] = [add, list, show, set, remove, uses, dismiss, dismissals, step, steps]

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
        let (title, owner) = (input.keyword("title"), input.keyword("owner"))
        let kinds: [ScreenKind] = [.screen, .component]
        guard let kind = ScreenKind(rawValue: input.keyword("kind") ?? "screen"), kinds.contains(kind) else {
            throw CommandError(.badArgument, "kind must be " + kinds.map(\.rawValue).joined(separator: " or "))
        }
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

    static let list = Command("SCREEN LIST", positional: 1...1, minimumRole: .reader) { input in
        let project = input.argument(0)
        return .database { connection in
            CommandResult(.records(try ScreenStore.list(project: project, on: connection).map(\.record)))
        }
    }

    static let show = Command("SCREEN SHOW", positional: 2...2, minimumRole: .reader) { input in
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

    static let set = Command(
        "SCREEN SET",
        positional: 2...2,
        keys: ["title", "owner", "poses"],
        repeatableKeys: ["path", "add-path", "remove-path"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let (project, key) = (input.argument(0), input.argument(1))
        let replacing = input.keywords("path")
        let change = ScreenChange(
            title: input.keyword("title"),
            owner: input.keyword("owner"),
            paths: replacing.isEmpty ? nil : try globs(replacing, key: "path"),
            addPaths: try globs(input.keywords("add-path"), key: "add-path"),
            removePaths: input.keywords("remove-path"),
            poses: try poseRequirement(input.keyword("poses"))
        )
        guard change != ScreenChange() else {
            throw CommandError(
                .badArgument, "SCREEN SET needs title=, owner=, path=, add-path=, remove-path= or poses=")
        }
        let actor = input.session.actor
        return .database { connection in
            let (screen, moved) = try ScreenStore.update(
                project: project, key: key, change: change, actor: actor, on: connection)
            var record = screen.record
            record.append("reattributed", String(moved))
            return CommandResult(.records([record]))
        }
    }

    static let remove = Command("SCREEN REMOVE", positional: 2...2, minimumRole: .writer) { input in
        let (project, key) = (input.argument(0), input.argument(1))
        let actor = input.session.actor
        return .database { connection in
            let owned = try ScreenStore.remove(project: project, key: key, actor: actor, on: connection)
            return CommandResult(.ok(["removed": key, "findings": String(owned)]))
        }
    }

    static let step = Command("STEP SET", positional: 4...4, keys: ["note"], minimumRole: .writer) {
        input throws(CommandError) in
        let (project, screen, step) = (input.argument(0), input.argument(1), input.argument(2))
        guard let state = StepState(rawValue: input.argument(3)) else {
            throw CommandError(
                .badArgument, "a step state is " + StepState.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let note = input.keyword("note")
        let actor = input.session.actor
        return .database { connection in
            let status = try StepStore.set(
                project: project, screen: screen, step: step, to: state, note: note, actor: actor, on: connection)
            return CommandResult(.records([status.record(screen: screen)]))
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
            "uses": uses.isEmpty ? nil : uses.joined(separator: ","), "created": createdAt.postgresText,
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
