import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol

/// `barkeep project …`.
struct ProjectGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "project",
        abstract: "Create, list, show, change and delete projects (apps under audit).",
        subcommands: [
            ProjectCreateCommand.self, ProjectListCommand.self, ProjectShowCommand.self, ProjectSetCommand.self,
            ProjectDeleteCommand.self,
        ]
    )
}

/// Prints projects as a table, one `key: value` list, or JSON (each project's JSON view).
private func printProjects(_ projects: [ProjectRecord], context: CLIContext, single: Bool) throws {
    if context.isJSON {
        let reply = RecordsReply(projects)
        try Output.json(single ? ProjectShowRequest().jsonBody(of: reply) : ProjectListRequest().jsonBody(of: reply))
    } else if single, let project = projects.first {
        Output.fields([
            ("Project", project.name), ("SDK", project.sdk), ("Deployment target", project.deploymentTarget),
            ("Required poses", project.requiredPoses.joined(separator: " ")), ("Created", project.created),
        ])
    } else if projects.isEmpty {
        print("No projects yet. Create one with: barkeep project create NAME")
    } else {
        Output.table(
            ["NAME", "SDK", "TARGET", "REQUIRED POSES", "CREATED"],
            projects.map { project in
                [
                    project.name, project.sdk, project.deploymentTarget,
                    project.requiredPoses.joined(separator: " "), String(project.created.prefix(10)),
                ]
            }
        )
    }
}

/// The version option `--NAME`, checked as the request's field checks it.
private func versionOption(_ name: String, _ parsed: ParsedCommand) throws(UsageError) -> SDKVersion? {
    guard let text = parsed.value(name) else { return nil }
    do {
        return try SDKVersion(wire: text)
    } catch {
        throw UsageError("--\(name) \(error.message)", commandPath: parsed.commandPath)
    }
}

struct ProjectCreateCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "create",
        abstract: "Create a project (admin).",
        arguments: [
            .positional("name", help: "Letters, digits, '.', '_' and '-', up to 64."),
            .option("sdk", valueName: "VERSION", default: "27.0", help: "The iOS SDK the team builds with."),
            .option(
                "deployment-target", valueName: "VERSION", default: "26.0", help: "The lowest iOS the app supports."),
        ]
    )

    let request: ProjectCreateRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = ProjectCreateRequest(
            name: parsed.value("name") ?? "", sdk: try versionOption("sdk", parsed),
            deploymentTarget: try versionOption("deployment-target", parsed))
    }

    func run(_ context: CLIContext) throws {
        let projects = try context.send(request).rows
        if context.isJSON || projects.isEmpty {
            try printProjects(projects, context: context, single: true)
        } else {
            let project = projects[0]
            print(
                "Created project \(Output.bold(project.name)) (SDK \(project.sdk), deployment target "
                    + "\(project.deploymentTarget))."
            )
        }
    }
}

struct ProjectListCommand: RunnableCommand {
    static let configuration = CommandConfiguration(name: "list", abstract: "List every project.")

    init(_ parsed: ParsedCommand) throws(UsageError) {}

    func run(_ context: CLIContext) throws {
        try printProjects(try context.send(ProjectListRequest()).rows, context: context, single: false)
    }
}

struct ProjectShowCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show one project.",
        arguments: [.positional("name", help: "The project.")]
    )

    let name: String

    init(_ parsed: ParsedCommand) throws(UsageError) { name = parsed.value("name") ?? "" }

    func run(_ context: CLIContext) throws {
        try printProjects(try context.send(ProjectShowRequest(name: name)).rows, context: context, single: true)
    }
}

struct ProjectSetCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Change a project's SDK, deployment target or required poses (admin).",
        discussion: """
            A new SDK unblocks the items whose symbols it declares, as barkeep sdk set does. --poses takes the
            poses every screen must pass, comma-separated or repeated (--poses P1,P2,P3,P4,P11,P12).
            """,
        arguments: [
            .positional("name", help: "The project."),
            .option("sdk", valueName: "VERSION", help: "The iOS SDK the team now builds with."),
            .option("deployment-target", valueName: "VERSION", help: "The lowest iOS the app now supports."),
            .option("poses", valueName: "POSE", repeatable: true, help: "The required poses (\(Pose.range))."),
        ]
    )

    let name: String
    let sdk: SDKVersion?
    let deploymentTarget: SDKVersion?
    let poses: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        name = parsed.value("name") ?? ""
        sdk = try versionOption("sdk", parsed)
        deploymentTarget = try versionOption("deployment-target", parsed)
        let poses = parsed.values("poses")
        self.poses = poses.isEmpty ? nil : poses.joined(separator: ",")
        guard sdk != nil || deploymentTarget != nil || self.poses != nil else {
            throw UsageError("give --sdk, --deployment-target or --poses", commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        // A pose the daemon would refuse is refused here, in its words, before anything is sent.
        let poses: PoseList? = try poses.map { text throws(CLIError) in try wireValue(text, key: "poses") }
        let reply = try context.send(
            ProjectSetRequest(name: name, sdk: sdk, deploymentTarget: deploymentTarget, poses: poses))
        // The project's record comes first; items the new SDK moved follow.
        if context.isJSON {
            var object = reply.head.json
            object["changes"] = reply.rows.map(\.listJSON)
            try Output.json(object)
            return
        }
        try printProjects([reply.head], context: context, single: true)
        if !reply.rows.isEmpty {
            print("")
            ItemChanges.print(reply.rows)
        }
    }
}

struct ProjectDeleteCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "delete",
        abstract: "Delete a project and everything recorded for it (admin); its history stays.",
        arguments: [
            .positional("name", help: "The project."),
            .flag("yes", help: "Confirm: the project's screens, findings and results are deleted."),
        ]
    )

    let name: String

    init(_ parsed: ParsedCommand) throws(UsageError) {
        name = parsed.value("name") ?? ""
        guard parsed.flag("yes") else {
            throw UsageError(
                "deleting \(name) removes its screens, findings and results; add --yes to confirm",
                commandPath: parsed.commandPath
            )
        }
    }

    func run(_ context: CLIContext) throws {
        let deleted = try context.send(ProjectDeleteRequest(name: name)).summary
        if context.isJSON {
            try Output.json(deleted.json)
        } else {
            print("Deleted project \(deleted.deleted).")
        }
    }
}
