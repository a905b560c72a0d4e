import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// HOOK ADD, LIST, REMOVE, PAUSE, RESUME and TEST: the webhooks the daemons POST a project's events to
/// (docs/hooks.md). Admin only: a hook sends the project's events, and a secret, to wherever its URL says.
enum HookCommands {
    /// Every HOOK command.
    static let all: [Command] = [add, list, remove, pause, resume, test]

    /// The longest signing secret, in bytes.
    static let maximumSecretLength = 1024

    /// `HOOK ADD PROJECT URL [kinds=K,…] [screen=KEY] [secret=S] [format=json|slack]`.
    static let add = Command(
        "HOOK ADD", positional: 2...2, arguments: [.project, .other], keys: ["kinds", "screen", "secret", "format"],
        minimumRole: .admin
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let settings = try settings(input)
        let actor = input.session.actor
        return .database { connection in
            CommandResult(.records([try HookStore.add(settings, to: project, actor: actor, on: connection).record]))
        }
    }

    /// `HOOK LIST [PROJECT]`: the hooks, never their secrets.
    static let list = LeasedCommands<Hook>.list(minimumRole: .admin)

    /// `HOOK REMOVE ID`.
    static let remove = LeasedCommands<Hook>.remove(minimumRole: .admin)

    /// `HOOK PAUSE ID`: no daemon delivers the hook until it is resumed; its cursor stays, so nothing that matches
    /// meanwhile is lost. Its reason names who paused it.
    static let pause = LeasedCommands<Hook>.pausing(true, minimumRole: .admin) { actor in pauseReason(by: actor) }

    /// `HOOK RESUME ID`: a paused hook delivers again from its cursor.
    static let resume = LeasedCommands<Hook>.pausing(false, minimumRole: .admin)

    /// Why a hook paused by hand is paused, as `HOOK LIST` and the `hook.paused` event show it.
    static func pauseReason(by actor: String) -> String { "by \(actor)" }

    /// `HOOK TEST ID`: POSTs a `hook.test` event (never stored) to the hook now and answers with the receiver's
    /// answer. The pool thread waits for the receiver, at most the delivery timeout; the hook's cursor, failures and
    /// pause are left alone.
    static let test = Command("HOOK TEST", positional: 1...1, arguments: [.other], minimumRole: .admin) {
        input throws(CommandError) in
        let id = try hookID(input.argument(0))
        let actor = input.session.actor
        let timeout = input.server.configuration.hooks?.configuration.timeout ?? HookDeliverer.defaultTimeout
        return .database { connection in
            let hook = try HookStore.require(id, on: connection)
            let url = try WebhookURL(parsing: hook.url)
            let payload = try HookPayload(record: HookPayload.testRecord(hook: hook, actor: actor), hook: hook)
            let outcome = WebhookClient(timeout: timeout).post(url, body: payload.body, headers: payload.headers)
            var record = Record(["type": "test", "hook": String(id), "url": hook.url, "answer": outcome.text])
            record.append("delivered", outcome.isDelivered ? "yes" : "no")
            return CommandResult(.records([record]))
        }
    }

    // MARK: - Checking what HOOK ADD was given

    /// The settings a `HOOK ADD` line asks for, checked: the URL, the kinds, the screen key, the secret, the format.
    static func settings(_ input: CommandInput) throws(CommandError) -> HookSettings {
        let url: WebhookURL
        do throws(CoreError) {
            url = try WebhookURL(parsing: input.argument(1))
        } catch {
            throw CommandError(.badArgument, error.description)
        }
        let kinds = try SessionCommands.eventKinds(input) ?? []
        let screen = try SessionCommands.eventScreen(input)
        let secret = input.keyword("secret")
        if let secret, secret.isEmpty || secret.utf8.count > maximumSecretLength {
            throw CommandError(.badArgument, "secret is 1 to \(maximumSecretLength) bytes")
        }
        let formatText = input.keyword("format") ?? HookFormat.json.rawValue
        guard let format = HookFormat(rawValue: formatText) else {
            throw CommandError(.badArgument, "format must be \(HookFormat.allNames)")
        }
        return HookSettings(url: url, kinds: kinds, screen: screen, secret: secret, format: format)
    }

    /// A hook id argument, or `BADARG`.
    static func hookID(_ text: String) throws(CommandError) -> Int64 { try LeasedCommands<Hook>.id(text) }
}

extension Hook: LeasedRecord {
    /// The hook as a `hook` record: never its secret, only whether it has one.
    var record: Record {
        Record([
            "type": "hook", "id": String(id), "project": project, "url": url, "kinds": kinds.joined(separator: ","),
            "screen": screen, "format": format.rawValue, "signed": secret == nil ? "no" : "yes",
            "state": PauseState(isPaused: pausedReason != nil).rawValue, "delivered": String(deliveredSeq),
            "delivered-at": deliveredAt?.postgresText, "failures": String(failures), "last-error": lastError,
            "paused": pausedReason, "holder": holder, "lease-until": leaseUntil?.postgresText,
            "created": createdAt.postgresText, "created-by": createdBy,
        ])
    }
}
