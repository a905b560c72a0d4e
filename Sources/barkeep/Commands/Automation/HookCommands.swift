import BarkeepAPI
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
}

/// `hook pause|resume ID`: a leased action on a hook.
protocol HookActionCommand: LeasedActionCommand where Request.Noun == HookNoun {}

extension HookActionCommand {
    /// The hook's state (and why, when paused), and the event it delivers again after.
    func sentence(_ hook: HookRecord) -> String {
        let reason = hook.paused.map { " (\($0)); resumed," } ?? ";"
        return "Hook \(hook.id) is \(hook.state.rawValue)\(reason) it delivers again after event #\(hook.delivered)."
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
                "kind", valueName: "KINDS", repeatable: true,
                help: "Only events of these kinds, comma-separated (finding.status,finding.new), as watch takes them."),
            .option("kinds", valueName: "KINDS", repeatable: true, help: "The same as --kind."),
            .option(
                "screen", valueName: "KEY",
                help: "Only events about this screen, component, app or unmapped, or counting for it."),
            .option("secret-file", valueName: "FILE", help: "Sign each body with the secret in this file."),
            .option("format", valueName: "FORMAT", help: "json (the event, default) or slack ({\"text\": …})."),
        ]
    )

    let request: HookAddRequest
    let secretFile: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        var request = HookAddRequest(project: parsed.value("project") ?? "", url: parsed.value("url") ?? "")
        let given = parsed.values("kind") + parsed.values("kinds")
        if !given.isEmpty {
            let kinds: [EventKind]
            do throws(CoreError) {
                kinds = try EventKind.kinds(parsing: given.joined(separator: ","))
            } catch {
                throw UsageError(error.description, commandPath: parsed.commandPath)
            }
            request.kinds = kinds.map(\.rawValue).joined(separator: ",")
        }
        request.screen = parsed.value("screen")
        if let format = parsed.value("format") {
            guard HookFormat(rawValue: format) != nil else {
                throw UsageError("--format must be \(HookFormat.allNames)", commandPath: parsed.commandPath)
            }
            request.format = format
        }
        self.request = request
        secretFile = parsed.value("secret-file")
    }

    func run(_ context: CLIContext) throws {
        var request = request
        if let secretFile { request.secret = try Self.secret(from: secretFile) }
        let hook = try context.send(request).rows.first
        try context.printRecord(hook, of: HookNoun.noun) { hook in
            "Added hook \(hook.id) to \(hook.project): \(hook.url) "
                + "(\(hook.format.rawValue)\(hook.isSigned ? ", signed" : "")). Events from now on are delivered."
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
struct HookListCommand: LeasedListCommand {
    typealias Noun = HookNoun

    static let configuration = listing(
        "List the webhooks of a project, or of every project: what they send, how far, and why paused.")
    static let columns = ["ID", "PROJECT", "URL", "SENDS", "FORMAT", "STATE", "DELIVERED", "FAILURES", "HOLDER"]
    static let emptyMessage = "No hooks. Add one with: barkeep hook add PROJECT URL [--kinds K,…] [--secret-file FILE]"

    let project: String?

    init(project: String?) { self.project = project }

    static func row(_ hook: HookRecord) -> [String] {
        var sends = hook.kinds.isEmpty ? "all events" : hook.kinds.joined(separator: ",")
        if let screen = hook.screen { sends += " of \(screen)" }
        // The last error is shown once: a hook paused by its failures names it in its reason, which STATE shows;
        // an active one that failed shows it beside its failures.
        var state = hook.state.rawValue
        var failures = String(hook.failures)
        if let reason = hook.paused {
            state += ": " + cut(reason)
        }
        if let error = hook.lastError, !(hook.paused?.contains(error) ?? false) {
            failures += " (\(cut(error)))"
        }
        return [
            String(hook.id), hook.project, hook.url, sends, hook.format.rawValue + (hook.isSigned ? ", signed" : ""),
            state, "#\(hook.delivered)", failures, hook.holder ?? "none",
        ]
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
        let removed = try context.send(HookRemoveRequest(id: try LeasedID.given(id))).summary
        if context.isJSON {
            try Output.json(removed.json)
        } else {
            print("Removed hook \(removed.removed).")
        }
    }
}

/// `barkeep hook pause ID`.
struct HookPauseCommand: HookActionCommand {
    typealias Request = HookPauseRequest
    static let configuration = action(
        "pause", "Pause a webhook by hand: nothing is sent until it is resumed, and nothing that matches is skipped.")

    let id: String
}

/// `barkeep hook resume ID`.
struct HookResumeCommand: HookActionCommand {
    typealias Request = HookResumeRequest
    static let configuration = action(
        "resume", "Resume a paused webhook: it delivers again from the last event delivered, nothing skipped.")

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
        let reply = try context.send(HookTestRequest(id: try LeasedID.given(id)))
        guard let test = reply.rows.first else { throw CLIError.badReply("HOOK TEST returned nothing") }
        if context.isJSON {
            try Output.json(test.listJSON)
        } else {
            print(Output.plain("Sent a test event to hook \(test.hook) (\(test.url)): \(test.answer)."))
        }
        if !test.isDelivered { throw CLIError.partial("the test event was not delivered") }
    }
}
