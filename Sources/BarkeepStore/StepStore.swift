import BarkeepCore
import Foundation

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
        // An ingest opening a finding of the step waits for this to commit, and the reverse.
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let screen = try ScreenStore.require(key, projectID: project.id, on: connection)
            let checklist = try ReadinessStore.checklist(on: connection)
            let number = try ItemStore.step(stepText, on: connection)
            guard let step = checklist.first(where: { $0.number == number }) else {
                throw StoreError.invalid("unknown checklist step '\(stepText)'")
            }
            let blockers = try connection.query(
                """
                SELECT f.number, f.status, f.rule, f.title, f.file, f.line, f.step FROM findings f
                WHERE f.screen_id = $1 AND f.status IN \(FindingStatus.needsWorkSQL)
                  AND (f.step = $2 OR f.rule = ANY($3::text[]))
                ORDER BY f.number
                """,
                [screen.id, step.number, step.rules]
            ).map(ReadinessStore.openFinding)
            if state == .done, !blockers.isEmpty {
                let named = blockers.prefix(3).map(\.reference).joined(separator: ", ")
                let more = blockers.count > 3 ? " and \(blockers.count - 3) more" : ""
                throw StoreError.conflict(
                    "step \(step.number) (\(step.key)) of \(key) cannot be done: finding \(named)\(more) "
                        + (blockers.count == 1 ? "is" : "are") + " open")
            }
            let before = try connection.query(
                "SELECT state, note FROM step_states WHERE screen_id = $1 AND step = $2",
                [screen.id, step.number]
            ).first
            let previous: String = try before?.decode("state") ?? StepState.todo.rawValue
            let previousNote: String? = try before?.decodeIfPresent("note")
            let note = note?.isEmpty == false ? note : nil
            if previous != state.rawValue || (note != nil && note != previousNote) {
                try connection.query(
                    """
                    INSERT INTO step_states (project_id, screen_id, step, state, note, actor)
                    VALUES ($1, $2, $3, $4, $5, $6)
                    ON CONFLICT (screen_id, step) DO UPDATE
                    SET state = excluded.state, note = coalesce(excluded.note, step_states.note),
                        actor = excluded.actor, updated_at = now()
                    """,
                    [project.id, screen.id, step.number, state.rawValue, note, actor]
                )
                try EventLog.append(
                    [
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .stepState,
                            subject: "\(key) step \(step.number) (\(step.key))", from: previous, to: state.rawValue,
                            reason: note, actor: actor, screen: key
                        )
                    ],
                    on: connection
                )
            }
            return StepStatus(step: step, recorded: state, blockers: blockers)
        }
    }
}
