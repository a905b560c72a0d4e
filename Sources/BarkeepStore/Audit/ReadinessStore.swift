import BarkeepCore

/// Gathers what decides whether screens are done (ScreenReadiness in Core decides): their findings needing work,
/// step states and latest pose results, a few set-based statements per project whatever the number of screens.
enum ReadinessStore {
    /// Where each of `screens` (of `project`) stands, in their order. A screen's findings are its own and those of
    /// the components it uses; a component or the app area has no steps, and poses only when it was given some.
    static func readiness(
        of screens: [Screen],
        project: Project,
        on connection: PostgresConnection
    ) throws -> [ScreenReadiness] {
        let checklist = ChecklistStep.all
        var facts = Dictionary(
            uniqueKeysWithValues: screens.map { screen in
                (screen.id, emptyFacts(of: screen, project: project, checklist: checklist))
            })
        // One screen: its own rows and its components' only, as one list of screen ids the index on the findings'
        // screens reads (`f.screen_id = $2 OR f.screen_id IN (…)` read the whole project's findings); several: the
        // project's rows.
        let screenID = screens.count == 1 ? screens.first?.id : nil
        let users = try componentUsers(projectID: project.id, on: connection)
        let owners =
            screenID == nil
            ? "f.screen_id IS NOT NULL"
            : "f.screen_id IN (SELECT $2::bigint UNION ALL SELECT component_id FROM screen_uses WHERE screen_id = $2)"
        let parameters: [(any PostgresEncodable)?] = screenID.map { [project.id, $0] } ?? [project.id]
        for row in try connection.query(
            """
            SELECT f.screen_id, f.number, f.status, f.rule, f.title, f.file, f.line,
                   coalesce(f.step, (SELECT r.step FROM rules r WHERE r.id = f.rule)) AS step
            FROM findings f
            WHERE f.project_id = $1 AND \(owners)
              AND f.status IN \(FindingStatus.needsWorkSQL)
            ORDER BY f.number
            """,
            parameters
        ) {
            let owner: Int64 = try row.decode("screen_id")
            let finding = try openFinding(row)
            for screen in [owner] + (users[owner] ?? []) where facts[screen] != nil {
                facts[screen]?.openFindings.append(finding)
                facts[screen]?.openFindingCount += 1
            }
        }
        try addStepsAndPoses(to: &facts, projectID: project.id, screenID: screenID, on: connection)
        return screens.map { ScreenReadiness(facts[$0.id] ?? emptyFacts(of: $0, project: project, checklist: [])) }
    }

    /// What a screen starts from before its findings, steps and poses are known: the checklist for a screen, none
    /// for a component or the area; its required poses.
    static func emptyFacts(of screen: Screen, project: Project, checklist: [ChecklistStep]) -> ScreenFacts {
        ScreenFacts(
            openFindings: [], checklist: screen.kind == .screen ? checklist : [], stepStates: [:],
            requiredPoses: screen.requiredPoses(of: project), latestPoses: [:])
    }

    /// Which components each screen uses, taking the project's id as $1.
    static let componentUsersQuery =
        "SELECT component_id, screen_id FROM screen_uses WHERE project_id = $1 ORDER BY screen_id"

    /// For each component of the project, the screens that use it.
    static func componentUsers(projectID: Int64, on connection: PostgresConnection) throws -> [Int64: [Int64]] {
        var users: [Int64: [Int64]] = [:]
        for row in try connection.query(componentUsersQuery, [projectID]) {
            users[try row.decode("component_id"), default: []].append(try row.decode("screen_id"))
        }
        return users
    }

    // Both take the project's id as $1 and a screen's id, or NULL for all, as $2.
    static let stepStatesQuery = """
        SELECT screen_id, step, state FROM step_states
        WHERE project_id = $1 AND ($2::bigint IS NULL OR screen_id = $2)
        """
    static let latestPosesQuery = """
        SELECT DISTINCT ON (screen_id, pose) screen_id, pose, result FROM pose_results
        WHERE project_id = $1 AND ($2::bigint IS NULL OR screen_id = $2)
        ORDER BY screen_id, pose, id DESC
        """

    /// Adds the recorded step states and the latest pose results of the project's screens (or of `screenID` only)
    /// to the facts of the screens already in `facts`.
    static func addStepsAndPoses(
        to facts: inout [Int64: ScreenFacts],
        projectID: Int64,
        screenID: Int64?,
        on connection: PostgresConnection
    ) throws {
        let parameters: [(any PostgresEncodable)?] = [projectID, screenID]
        for row in try connection.query(stepStatesQuery, parameters) {
            let screen: Int64 = try row.decode("screen_id")
            facts[screen]?.stepStates[try row.decode("step")] = StepState(rawValue: try row.decode("state"))
        }
        for row in try connection.query(latestPosesQuery, parameters) {
            let screen: Int64 = try row.decode("screen_id")
            facts[screen]?.latestPoses[try row.decode("pose")] = PoseResult(rawValue: try row.decode("result"))
        }
    }

    /// A finding needing work as the readiness rule sees it, from a row with number, status, rule, title, file, line
    /// and step.
    static func openFinding(_ row: PostgresRow) throws -> OpenFinding {
        let rule: String? = try row.decodeIfPresent("rule")
        let file: String? = try row.decodeIfPresent("file")
        let line: Int? = try row.decodeIfPresent("line")
        let label =
            if let rule {
                [rule, file.map { "\($0):\(line.map(String.init) ?? "")" }].compactMap { $0 }.joined(separator: " ")
            } else {
                try row.decodeIfPresent("title", as: String.self) ?? "item"
            }
        return OpenFinding(
            number: try row.decode("number"),
            label: label,
            status: FindingStatus(rawValue: try row.decode("status")) ?? .proposed,
            rule: rule,
            step: try row.decodeIfPresent("step")
        )
    }
}
