import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep hook …`: the webhooks the daemons POST a project's events to (docs/hooks.md).
struct HookGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "hook",
        abstract: "Webhooks: POST a project's events to a URL, signed, in order, retried (admin).",
        discussion: "docs/hooks.md tells the payloads, how to check the signature, the retries and the ordering.",
        subcommands: [
            HookAddCommand.self, HookListCommand.self, HookPauseCommand.self, HookResumeCommand.self,
            HookRemoveCommand.self, HookTestCommand.self,
        ]
    )

    /// A `hook` record as a JSON object: its numbers as numbers, `kinds` a list.
    static func json(_ record: Record) -> [String: Any] {
        var object = record.json(integers: ["id", "delivered", "failures"], lists: ["kinds"])
        object.removeValue(forKey: "type")
        return object
    }
}

/// `hook pause|resume ID`: a leased action on a hook.
protocol HookActionCommand: LeasedActionCommand {}

extension HookActionCommand {
    /// `HOOK`.
    static var noun: String { "HOOK" }

    /// A `hook` record as a JSON object.
    static func json(_ record: Record) -> [String: Any] { HookGroup.json(record) }

    /// The hook's state (and why, when paused), and the event it delivers again after.
    func sentence(_ record: Record) -> String {
        let state = record["state"] ?? (Self.verb == "PAUSE" ? PauseState.paused : PauseState.active).rawValue
        let reason = record["paused"].map { " (\($0)); resumed," } ?? ";"
        let delivered = record["delivered"] ?? "?"
        return "Hook \(record["id"] ?? id) is \(state)\(reason) it delivers again after event #\(delivered)."
    }
}

/// `barkeep hook add PROJECT URL …`.
struct HookAddCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a webhook to a project: every matching event from now on is POSTed to URL.",
        discussion: """
            URL is http:// or https:// (the certificate is verified against the daemon host's CAs). The secret is
            read from FILE (its first line, trailing blanks dropped), sent to the daemon and never shown again; each
            body is then signed with HMAC-SHA256 in the X-Barkeep-Signature header.
            """,
        arguments: [
            .positional("project", help: "The project whose events are sent."),
            .positional("url", help: "Where the events are POSTed."),
            .option(
                "kinds", valueName: "KINDS",
                help: "Only events of these kinds, comma-separated (finding.status,finding.new)."),
            .option(
                "screen", valueName: "KEY",
                help: "Only events about this screen, component, app or unmapped, or counting for it."),
            .option("secret-file", valueName: "FILE", help: "Sign each body with the secret in this file."),
            .option("format", valueName: "FORMAT", help: "json (the event, default) or slack ({\"text\": …})."),
        ]
    )

    let project: String
    let url: String
    let keywords: [(key: String, value: String)]
    let secretFile: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        url = parsed.value("url") ?? ""
        var keywords: [(key: String, value: String)] = []
        if let text = parsed.value("kinds") {
            let kinds: [EventKind]
            do throws(CoreError) {
                kinds = try EventKind.kinds(parsing: text)
            } catch {
                throw UsageError(error.description, commandPath: parsed.commandPath)
            }
            keywords.append(("kinds", kinds.map(\.rawValue).joined(separator: ",")))
        }
        if let screen = parsed.value("screen") { keywords.append(("screen", screen)) }
        if let format = parsed.value("format") {
            guard HookFormat(rawValue: format) != nil else {
                throw UsageError("--format must be \(HookFormat.allNames)", commandPath: parsed.commandPath)
            }
            keywords.append(("format", format))
        }
        self.keywords = keywords
        secretFile = parsed.value("secret-file")
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "HOOK", arguments: ["ADD", project, url])
        request.keywordList = keywords
        if let secretFile { request.keywordList.append(("secret", try Self.secret(from: secretFile))) }
        let response = try context.request(request)
        try context.printRecord(of: "hook", in: response, json: HookGroup.json) { record in
            "Added hook \(record["id"] ?? "?") to \(record["project"] ?? project): \(record["url"] ?? url) "
                + "(\(record["format"] ?? "json")\(record["signed"] == "yes" ? ", signed" : "")). "
                + "Events from now on are delivered."
        }
    }

    /// The secret in `path`: its first line, trailing blanks dropped.
    static func secret(from path: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError.badInput("--secret-file: cannot read \(path): \(error.localizedDescription)")
        }
        let firstLine = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1).first ?? ""
        let secret = String(firstLine.reversed().drop { $0.isWhitespace }.reversed())
        guard !secret.isEmpty else { throw CLIError.badInput("--secret-file: \(path) holds no secret") }
        return secret
    }
}

/// `barkeep hook list [PROJECT]`.
struct HookListCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List the webhooks of a project, or of every project: what they send, how far, and why paused.",
        arguments: [.positional("project", optional: true, help: "Only this project's hooks.")]
    )

    let project: String?

    init(_ parsed: ParsedCommand) throws(UsageError) { project = parsed.value("project") }

    func run(_ context: CLIContext) throws {
        let response = try context.request(Request(verb: "HOOK", arguments: ["LIST"] + (project.map { [$0] } ?? [])))
        if context.isJSON {
            try Output.json(response.records.map(HookGroup.json))
        } else if response.records.isEmpty {
            print("No hooks. Add one with: barkeep hook add PROJECT URL [--kinds K,…] [--secret-file FILE]")
        } else {
            Output.table(
                ["ID", "PROJECT", "URL", "SENDS", "FORMAT", "STATE", "DELIVERED", "FAILURES", "HOLDER"],
                response.records.map { record in
                    var sends = record["kinds"].flatMap { $0.isEmpty ? nil : $0 } ?? "all events"
                    if let screen = record["screen"] { sends += " of \(screen)" }
                    // The last error is shown once: a hook paused by its failures names it in its reason, which
                    // STATE shows; an active one that failed shows it beside its failures.
                    var state = record["state"] ?? ""
                    var failures = record["failures"] ?? "0"
                    if let reason = record["paused"] {
                        state += ": " + Self.cut(reason)
                    }
                    if let error = record["last-error"], !(record["paused"]?.contains(error) ?? false) {
                        failures += " (\(Self.cut(error)))"
                    }
                    return [
                        record["id"] ?? "", record["project"] ?? "", record["url"] ?? "", sends,
                        (record["format"] ?? "") + (record["signed"] == "yes" ? ", signed" : ""), state,
                        "#" + (record["delivered"] ?? "0"), failures, record["holder"] ?? "none",
                    ]
                }
            )
        }
    }
}

extension HookListCommand {
    /// The characters of an error a row shows at most on a terminal; the whole error is in `--json`.
    static let shownErrorLength = 72

    /// `text` cut to `shownErrorLength` characters with `…` when standard output is a terminal, whole otherwise.
    static func cut(_ text: String) -> String {
        guard Output.terminalWidth != nil, text.count > shownErrorLength else { return text }
        return text.prefix(shownErrorLength - 1) + "…"
    }
}

/// `barkeep hook remove ID`.
struct HookRemoveCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "remove",
        abstract: "Remove a webhook: nothing more is sent to it.",
        arguments: [.positional("id", help: "The hook's id.")]
    )

    let id: String

    init(_ parsed: ParsedCommand) throws(UsageError) { id = parsed.value("id") ?? "" }

    func run(_ context: CLIContext) throws {
        _ = try context.request(Request(verb: "HOOK", arguments: ["REMOVE", id]))
        if context.isJSON {
            try Output.json(["removed": Int(id) ?? 0])
        } else {
            print("Removed hook \(id).")
        }
    }
}

/// `barkeep hook pause ID`.
struct HookPauseCommand: HookActionCommand {
    static let configuration = action(
        "pause", "Pause a webhook by hand: nothing is sent until it is resumed, and nothing that matches is skipped.")
    static let verb = "PAUSE"

    let id: String
}

/// `barkeep hook resume ID`.
struct HookResumeCommand: HookActionCommand {
    static let configuration = action(
        "resume", "Resume a paused webhook: it delivers again from the last event delivered, nothing skipped.")
    static let verb = "RESUME"

    let id: String
}

/// `barkeep hook test ID`.
struct HookTestCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "test",
        abstract: "Send a hook.test event to a webhook now and show the receiver's answer (exit 1 unless 2xx).",
        arguments: [.positional("id", help: "The hook's id.")]
    )

    let id: String

    init(_ parsed: ParsedCommand) throws(UsageError) { id = parsed.value("id") ?? "" }

    func run(_ context: CLIContext) throws {
        let response = try context.request(Request(verb: "HOOK", arguments: ["TEST", id]))
        guard let record = response.records.first else { throw CLIError.badReply("HOOK TEST returned nothing") }
        let isDelivered = record["delivered"] == "yes"
        if context.isJSON {
            var object = record.json(integers: ["hook"])
            object.removeValue(forKey: "type")
            object["delivered"] = isDelivered
            try Output.json(object)
        } else {
            print(Output.plain("Sent a test event to hook \(id) (\(record["url"] ?? "")): \(record["answer"] ?? "?")."))
        }
        if !isDelivered { throw CLIError.partial("the test event was not delivered") }
    }
}
