import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// HOOK ADD, LIST, REMOVE, PAUSE, RESUME and TEST: the webhooks the daemons POST a project's events to
/// (docs/hooks.md), declared by their specs (BarkeepAPI). Admin only: a hook sends the project's events, and a
/// secret, to wherever its URL says.
enum HookCommands {
    /// Every HOOK command.
    static let all: [Command] = [add, list, remove, pause, resume, test]

    /// The longest signing secret, in bytes.
    static let maximumSecretLength = 1024

    /// `HOOK ADD PROJECT URL [kinds=K,…] [screen=KEY] [secret=S] [format=json|slack]`.
    static let add = Command(HookAddRequest.self) { request, input throws(CommandError) in
        let settings = try settings(request)
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let hook = try HookStore.add(settings, to: request.project, actor: actor, on: connection)
            return CommandResult(HookAddRequest.Reply([HookRecord(hook)]), version: version)
        }
    }

    /// `HOOK LIST [PROJECT]`: the hooks, never their secrets.
    static let list = LeasedCommands<Hook>.list

    /// `HOOK REMOVE ID`.
    static let remove = LeasedCommands<Hook>.remove

    /// `HOOK PAUSE ID`: no daemon delivers the hook until it is resumed; its cursor stays, so nothing that matches
    /// meanwhile is lost. Its reason names who paused it.
    static let pause = LeasedCommands<Hook>.pausing(Pausing.self) { actor in pauseReason(by: actor) }

    /// `HOOK RESUME ID`: a paused hook delivers again from its cursor.
    static let resume = LeasedCommands<Hook>.pausing(Resuming.self)

    /// Why a hook paused by hand is paused, as `HOOK LIST` and the `hook.paused` event show it.
    static func pauseReason(by actor: String) -> String { "by \(actor)" }

    /// `HOOK TEST ID`: POSTs a `hook.test` event (never stored) to the hook now and answers with the receiver's
    /// answer. The pool thread waits for the receiver, at most the delivery timeout; the hook's cursor, failures and
    /// pause are left alone.
    static let test = Command(HookTestRequest.self) { request, input in
        let id = request.id.value
        let actor = input.session.actor
        let version = input.session.protocolVersion
        let timeout = input.server.configuration.hooks?.configuration.timeout ?? HookDeliverer.defaultTimeout
        return .database { connection in
            let hook = try HookStore.require(id, on: connection)
            let url = try WebhookURL(parsing: hook.url)
            let payload = try HookPayload(event: HookPayload.testEvent(hook: hook, actor: actor), hook: hook)
            let outcome = WebhookClient(timeout: timeout).post(url, body: payload.body, headers: payload.headers)
            var record = HookTestRecord()
            record.hook = Int(id)
            record.url = hook.url
            record.answer = outcome.text
            record.isDelivered = outcome.isDelivered
            return CommandResult(HookTestRequest.Reply([record]), version: version)
        }
    }

    // MARK: - Checking what HOOK ADD was given

    /// The settings a `HOOK ADD` line asks for, checked: the URL, the kinds, the screen key, the secret, the format.
    static func settings(_ request: HookAddRequest) throws(CommandError) -> HookSettings {
        let url: WebhookURL
        let kinds: [EventKind]
        do throws(CoreError) {
            url = try WebhookURL(parsing: request.url)
            kinds = try request.kinds.map(EventKind.kinds(parsing:)) ?? []
        } catch {
            throw CommandError(.badArgument, error.description)
        }
        let screen = try SessionCommands.eventScreen(request.screen)
        let secret = request.secret
        if let secret, secret.isEmpty || secret.utf8.count > maximumSecretLength {
            throw CommandError(.badArgument, "secret is 1 to \(maximumSecretLength) bytes")
        }
        let formatText = request.format ?? HookFormat.json.rawValue
        guard let format = HookFormat(rawValue: formatText) else {
            throw CommandError(.badArgument, "format must be \(HookFormat.allNames)")
        }
        return HookSettings(url: url, kinds: kinds, screen: screen, secret: secret, format: format)
    }

}

extension Hook: LeasedWire {
    /// Webhooks.
    typealias Noun = HookNoun
    /// The hook as a `hook` record.
    var wireRecord: HookRecord { HookRecord(self) }
}

extension HookRecord {
    /// The record of `hook`: never its secret, only whether it has one.
    init(_ hook: Hook) {
        self.init()
        id = Int(hook.id)
        project = hook.project
        url = hook.url
        kinds = hook.kinds
        screen = hook.screen
        format = hook.format
        isSigned = hook.secret != nil
        state = PauseState(isPaused: hook.pausedReason != nil)
        delivered = Int(hook.deliveredSeq)
        deliveredAt = hook.deliveredAt?.postgresText
        failures = hook.failures
        lastError = hook.lastError
        paused = hook.pausedReason
        holder = hook.holder
        leaseUntil = hook.leaseUntil?.postgresText
        created = hook.createdAt.postgresText
        createdBy = hook.createdBy
    }
}
