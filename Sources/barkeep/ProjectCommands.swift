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

/// The JSON object of a `project` record.
func projectJSON(_ record: Record) -> [String: Any] { record.json(lists: ["required-poses"]) }

/// Prints project records as a table, one `key: value` list, or JSON.
private func printProjects(_ records: [Record], context: CLIContext, single: Bool) throws {
    if context.isJSON {
        let objects = records.map(projectJSON)
        try Output.json(single ? objects.first ?? [:] : objects)
    } else if single, let record = records.first {
        Output.fields([
            ("Project", record["name"]), ("SDK", record["sdk"]), ("Deployment target", record["deployment-target"]),
            ("Required poses", record["required-poses"]?.replacingOccurrences(of: ",", with: " ")),
            ("Created", record["created"]),
        ])
    } else if records.isEmpty {
        print("No projects yet. Create one with: barkeep project create NAME")
    } else {
        Output.table(
            ["NAME", "SDK", "TARGET", "REQUIRED POSES", "CREATED"],
            records.map { record in
                [
                    record["name"] ?? "", record["sdk"] ?? "", record["deployment-target"] ?? "",
                    (record["required-poses"] ?? "").replacingOccurrences(of: ",", with: " "),
                    String((record["created"] ?? "").prefix(10)),
                ]
            }
        )
    }
}

/// Reads `--sdk` and `--deployment-target` as request keywords.
private func versionKeywords(_ parsed: ParsedCommand) -> [(key: String, value: String)] {
    var keywords: [(key: String, value: String)] = []
    if let sdk = parsed.value("sdk") { keywords.append(("sdk", sdk)) }
    if let target = parsed.value("deployment-target") { keywords.append(("deployment-target", target)) }
    return keywords
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

    let name: String
    let keywords: [(key: String, value: String)]

    init(_ parsed: ParsedCommand) throws(UsageError) {
        name = parsed.value("name") ?? ""
        keywords = versionKeywords(parsed)
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "PROJECT", arguments: ["CREATE", name])
        request.keywordList = keywords
        let response = try context.request(request)
        if context.isJSON || response.records.isEmpty {
            try printProjects(response.records, context: context, single: true)
        } else {
            let record = response.records[0]
            print(
                "Created project \(Output.bold(name)) (SDK \(record["sdk"] ?? "?"), deployment target "
                    + "\(record["deployment-target"] ?? "?"))."
            )
        }
    }
}

struct ProjectListCommand: RunnableCommand {
    static let configuration = CommandConfiguration(name: "list", abstract: "List every project.")

    init(_ parsed: ParsedCommand) throws(UsageError) {}

    func run(_ context: CLIContext) throws {
        let response = try context.request(Request(verb: "PROJECT", arguments: ["LIST"]))
        try printProjects(response.records, context: context, single: false)
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
        let response = try context.request(Request(verb: "PROJECT", arguments: ["SHOW", name]))
        try printProjects(response.records, context: context, single: true)
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
    let keywords: [(key: String, value: String)]

    init(_ parsed: ParsedCommand) throws(UsageError) {
        name = parsed.value("name") ?? ""
        var keywords = versionKeywords(parsed)
        let poses = parsed.values("poses")
        if !poses.isEmpty { keywords.append(("poses", poses.joined(separator: ","))) }
        guard !keywords.isEmpty else {
            throw UsageError("give --sdk, --deployment-target or --poses", commandPath: parsed.commandPath)
        }
        self.keywords = keywords
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "PROJECT", arguments: ["SET", name])
        request.keywordList = keywords
        let response = try context.request(request)
        // The project's record comes first; items the new SDK moved follow.
        let projects = response.records.filter { $0["name"] != nil }
        let changes = response.records.filter { $0["name"] == nil }
        if context.isJSON {
            var object = projects.first?.json(lists: ["required-poses"]) ?? [:]
            object["changes"] = changes.map(ItemChanges.json)
            try Output.json(object)
            return
        }
        try printProjects(projects, context: context, single: true)
        if !changes.isEmpty {
            print("")
            ItemChanges.print(changes)
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
        _ = try context.request(Request(verb: "PROJECT", arguments: ["DELETE", name]))
        if context.isJSON {
            try Output.json(["deleted": name])
        } else {
            print("Deleted project \(name).")
        }
    }
}
