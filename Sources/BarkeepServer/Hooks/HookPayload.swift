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

    /// The payload of `record` (an event's WATCH record) for `hook`: the JSON object `barkeep watch --json` prints,
    /// or a Slack message with the line `barkeep watch` prints; signed when the hook has a secret.
    init(record: Record, hook: Hook) throws {
        let text: String
        switch hook.format {
        case .json: text = try EventRecord.jsonText(record)
        case .slack: text = try Record.jsonText(["text": EventRecord.line(record)])
        }
        body = Array(text.utf8)
        headers = [
            ("Content-Type", "application/json"), ("User-Agent", "barkeepd/\(BarkeepVersion.current)"),
            ("X-Barkeep-Event", record["kind"] ?? ""), ("X-Barkeep-Delivery", "\(hook.id)-\(record["seq"] ?? "0")"),
        ]
        if let secret = hook.secret {
            headers.append(
                (Self.signatureHeader, "sha256=" + SHA256Digest.hmacHex(key: Array(secret.utf8), message: body)))
        }
    }

    /// The record of the test event `HOOK TEST` sends: kind `hook.test`, sequence number 0, now.
    static func testRecord(hook: Hook, actor: String, at: Date = Date()) -> Record {
        Record([
            "seq": "0", "project": hook.project, "kind": testKind, "subject": hook.subject,
            "reason": "a test delivery asked for by \(actor)", "actor": actor, "at": at.postgresText,
        ])
    }

    /// The kind of the test event; never stored in the event log.
    static let testKind = "hook.test"
}
