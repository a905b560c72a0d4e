import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep sdk …`.
struct SDKGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "sdk",
        abstract: "Move a project to another iOS SDK, unblocking what it brings.",
        subcommands: [SDKSetCommand.self]
    )
}

struct SDKSetCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Record the iOS SDK the team builds with now (admin).",
        discussion: """
            In one transaction every item whose symbols the new SDK declares returns to the status it had before
            it was blocked (an event each), and items needing a symbol it lacks are blocked. Prints what became
            workable and which need an if #available(iOS X, *) gate because the deployment target is lower. With
            --json prints {"sdk","previous","changes":[{id,title,screen,from,to,reason,gate}]}.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("version", help: "The SDK version, e.g. 27.1."),
        ]
    )

    let project: String
    let version: String

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        version = parsed.value("version") ?? ""
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(
            SDKSetRequest(project: project, version: (try wireValue(version, key: "version") as NewSDK).version))
        guard let change = reply.summary else { throw CLIError.badReply("SDK SET sent no sdk") }
        if context.isJSON {
            try Output.json([
                "sdk": change.sdk, "previous": change.previous, "changes": reply.rows.map(\.listJSON),
            ])
            return
        }
        if change.sdk == change.previous {
            print("\(project) already builds with the iOS \(change.sdk) SDK.")
        } else {
            print("\(project) now builds with the iOS \(change.sdk) SDK (was \(change.previous)).")
        }
        ItemChanges.print(reply.rows)
    }
}

/// `barkeep blocked PROJECT`.
struct BlockedCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "blocked",
        abstract: "List the items blocked on the SDK, grouped by SDK and symbol.",
        discussion: """
            An item waiting for several symbols appears under each. With --json prints an array of
            {sdk, symbol, id, title, rule, screen, status, reason}.
            """,
        arguments: [.positional("project", help: "The project.")]
    )

    let project: String

    init(_ parsed: ParsedCommand) throws(UsageError) { project = parsed.value("project") ?? "" }

    func run(_ context: CLIContext) throws {
        let request = BlockedRequest(project: project)
        let reply = try context.send(request)
        let records = reply.rows
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
            return
        }
        guard !records.isEmpty else {
            print("Nothing is blocked.")
            return
        }
        var group: String?
        for record in records {
            let heading =
                record.sdk == BlockedRecord.noSDK
                ? "No iOS SDK declares \(record.symbol ?? "?")"
                : "iOS \(record.sdk) SDK — \(record.symbol ?? "no symbol")"
            if heading != group {
                if group != nil { print("") }
                print(Output.bold(heading))
                group = heading
            }
            let what = record.finding.title ?? record.finding.rule ?? ""
            print(Output.plain("  \(record.finding.id)  \(record.finding.screen)  \(what)"))
        }
    }
}
