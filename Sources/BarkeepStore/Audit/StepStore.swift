import BarkeepCore
import Foundation

/// What a `STEP SET` did to one screen's step.
public enum StepOutcome: String, Sendable, Equatable {
    /// The state (or the note) changed: one `step.state` event.
    case changed
    /// It was so already.
    case unchanged
    /// `done` was refused while a finding of the step is open on the screen; the step was left alone.
    case refused
    /// The row has no checklist steps (a component, the app area): a selection left it alone.
    case skipped
}

/// One screen's step after a `STEP SET`.
public struct StepChange: Sendable, Equatable {
    /// The screen's key.
    public var screen: String
    /// The step as it now stands (a refused one as it was, with the findings that refuse it).
    public var status: StepStatus
    /// What happened to it.
    public var outcome: StepOutcome
    /// Why it was skipped.
    public var reason: String?
    /// The state recorded before.
    public var previous: StepState = .todo
}

/// Checklist step states of screens, set by hand; a step with an open finding of its rules cannot be done.
public enum StepStore {
    /// Sets step `step` (a number, or a key such as `container`) of a screen to `state`, with its event. Refuses
    /// `done` while a finding of the step's rules (or an item of the step) is open on the screen, naming it.
    /// Returns the step as it now stands.
    public static func set(
        project projectName: String,
        screen key: String,
        step stepText: String,
        to state: StepState,
        note: String?,
        actor: String,
        on connection: PostgresConnection
    ) throws -> StepStatus {
        let changes = try set(
            project: projectName, screens: .key(key), step: stepText, to: state, note: note, actor: actor,
            on: connection)
        guard let change = changes.first else {
            throw try ScreenStore.notFound(key, project: projectName, on: connection)
        }
        return change.status
    }

    /// Sets step `step` of every screen `selection` picks to `state`, in one transaction under the project's lock,
    /// with a `step.state` event per screen whose step changed. Components and the app area a selection picks are
    /// reported `skipped` with why (ScreenSelection.treatments); named by its key, such a row refuses the change.
    /// Picking none is `notFound`. `done` is refused for a screen while a finding of the step is open on it: for a
    /// single key that refusal is the error, for a selection that screen is left alone and reported `refused`.
    /// `isDryRun` writes nothing and reports what would be. Returns each picked row, by key.
    public static func set(
        project projectName: String,
        screens selection: ScreenSelection,
        step stepText: String,
        to state: StepState,
        note: String?,
        actor: String,
        isDryRun: Bool = false,
        on connection: PostgresConnection
    ) throws -> [StepChange] {
        // An ingest opening a finding of the step waits for this to commit, and the reverse.
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let (picked, treatments) = try ScreenStore.pick(
                selection, for: [.steps], project: project, on: connection)
            let screens = zip(picked, treatments).filter { !$0.1.isSkipped }.map(\.0)
            let number = try ItemStore.step(stepText)
            guard let step = ChecklistStep.numbered(number) else {
                throw StoreError.invalid("unknown checklist step \(ValueExcerpt.quoted(stepText))")
            }
            let keys = screens.map(\.key)
            // The screens' open findings of the step or its rules, their own and those of the components they use, as
            // the screen's readiness counts them (a pre-filter, so that a step of every screen does not read every
            // open finding); which of them keep the step open is Core's rule (`isKeptOpen`).
            var blockers: [String: [OpenFinding]] = [:]
            for row in try connection.query(
                """
                SELECT s.key AS screen, f.number, f.status, f.rule, f.title, f.file, f.line, f.step
                FROM screens s
                CROSS JOIN LATERAL (
                    SELECT s.id AS source_id
                    UNION ALL SELECT u.component_id FROM screen_uses u WHERE u.screen_id = s.id
                ) source
                JOIN findings f ON f.screen_id = source.source_id
                WHERE s.project_id = $1 AND s.key = ANY($2::text[]) AND f.project_id = $1
                  AND f.status IN \(FindingStatus.needsWorkSQL) AND (f.step = $3 OR f.rule = ANY($4::text[]))
                ORDER BY s.key, f.number
                """,
                [project.id, keys, step.number, step.rules]
            ) {
                let finding = try ReadinessStore.openFinding(row)
                if step.isKeptOpen(by: finding) { blockers[try row.decode("screen"), default: []].append(finding) }
            }
            if state == .done, selection.isSingleKey, let key = keys.first,
                let refusal = step.refusalOfDone(on: key, blockers: blockers[key] ?? [])
            {
                throw StoreError.conflict(refusal)
            }
            var before: [String: (state: String, note: String?)] = [:]
            for row in try connection.query(
                """
                SELECT s.key, t.state, t.note FROM step_states t JOIN screens s ON s.id = t.screen_id
                WHERE t.project_id = $1 AND s.key = ANY($2::text[]) AND t.step = $3
                """,
                [project.id, keys, step.number]
            ) {
                before[try row.decode("key")] = (try row.decode("state"), try row.decodeIfPresent("note"))
            }
            let note = note?.isEmpty == false ? note : nil
            var changes: [StepChange] = []
            var events: [NewEvent] = []
            for key in keys {
                let open = blockers[key] ?? []
                let previous = before[key]?.state ?? StepState.todo.rawValue
                let outcome: StepOutcome
                if state == .done, step.refusalOfDone(on: key, blockers: open) != nil {
                    outcome = .refused
                } else if previous != state.rawValue || (note != nil && note != before[key]?.note) {
                    outcome = .changed
                    events.append(
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .stepState,
                            subject: "\(key) step \(step.number) (\(step.key))", from: previous, to: state.rawValue,
                            reason: note, actor: actor, screen: key))
                } else {
                    outcome = .unchanged
                }
                let recorded = outcome == .refused ? StepState(rawValue: previous) ?? .todo : state
                changes.append(
                    StepChange(
                        screen: key, status: StepStatus(step: step, recorded: recorded, blockers: open),
                        outcome: outcome, previous: StepState(rawValue: previous) ?? .todo))
            }
            let changed = changes.filter { $0.outcome == .changed }.map(\.screen)
            if !changed.isEmpty, !isDryRun {
                try connection.query(
                    """
                    INSERT INTO step_states (project_id, screen_id, step, state, note, actor)
                    SELECT $1, s.id, $3, $4, $5, $6 FROM screens s WHERE s.project_id = $1 AND s.key = ANY($2::text[])
                    ON CONFLICT (screen_id, step) DO UPDATE
                    SET state = excluded.state, note = coalesce(excluded.note, step_states.note),
                        actor = excluded.actor, updated_at = now()
                    """,
                    [project.id, changed, step.number, state.rawValue, note, actor]
                )
                try EventLog.append(events, on: connection)
            }
            var byKey = Dictionary(uniqueKeysWithValues: changes.map { ($0.screen, $0) })
            for treatment in treatments where treatment.isSkipped {
                byKey[treatment.key] = StepChange(
                    screen: treatment.key, status: StepStatus(step: step, recorded: .todo, blockers: []),
                    outcome: .skipped, reason: treatment.reason)
            }
            return picked.compactMap { byKey[$0.key] }
        }
    }
}
