import BarkeepAPI
import BarkeepCore
import BarkeepHashing
import BarkeepProtocol
import BarkeepStore
import Foundation

/// What a webhook POSTs for one event: the body in the hook's format, and the headers, the signature among them.
struct HookPayload: Sendable, Equatable {
    /// The header that carries the body's signature.
    static let signatureHeader = "X-Barkeep-Signature"

    /// The body.
    var body: [UInt8]
    /// The headers besides Host, Content-Length and Connection.
    var headers: [(String, String)]

    /// Equal bodies and equal headers in the same order.
    static func == (left: HookPayload, right: HookPayload) -> Bool {
        left.body == right.body && left.headers.elementsEqual(right.headers) { $0 == $1 }
    }

    /// The payload of `event` for `hook`: the JSON object `barkeep watch --json` prints, or a Slack message with the
    /// line `barkeep watch` prints; signed when the hook has a secret.
    init(event: EventFields, hook: Hook) throws {
        let text: String
        switch hook.format {
        case .json: text = try event.jsonText()
        case .slack: text = try Record.jsonText(["text": event.line()])
        }
        body = Array(text.utf8)
        headers = [
            ("Content-Type", "application/json"), ("User-Agent", "barkeepd/\(BarkeepVersion.current)"),
            ("X-Barkeep-Event", event.kind), ("X-Barkeep-Delivery", "\(hook.id)-\(event.seq)"),
        ]
        if let secret = hook.secret {
            headers.append(
                (Self.signatureHeader, "sha256=" + SHA256Digest.hmacHex(key: Array(secret.utf8), message: body)))
        }
    }

    /// The test event `HOOK TEST` sends: kind `hook.test`, sequence number 0, now.
    static func testEvent(hook: Hook, actor: String, at: Date = Date()) -> EventFields {
        var event = EventFields()
        event.project = hook.project
        event.kind = testKind
        event.subject = hook.subject
        event.reason = "a test delivery asked for by \(actor)"
        event.actor = actor
        event.at = at.postgresText
        return event
    }

    /// The kind of the test event; never stored in the event log.
    static let testKind = "hook.test"
}
