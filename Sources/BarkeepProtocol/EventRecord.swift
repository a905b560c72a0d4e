/// How an event record (a WATCH line) is shown: the one home of `barkeep watch`'s JSON object and text line, which
/// the histories of `finding show`, `screen show` and `source show` and the daemon's webhooks reuse, so that a
/// webhook's body is exactly what `barkeep watch --json` prints for the same event.
public enum EventRecord {
    /// The event as a JSON object: `seq` and `finding` numbers, `screens` an array, every other field a string.
    public static func json(_ record: Record) -> [String: Any] {
        var object = record.json(integers: ["seq", "finding"], lists: ["screens"])
        object.removeValue(forKey: "type")
        return object
    }

    /// The event as one compact JSON line (keys sorted): what `barkeep watch --json` prints.
    public static func jsonText(_ record: Record) throws -> String {
        try Record.jsonText(json(record))
    }

    /// What a part of the text line is, for callers that style it.
    public enum Part: Sendable {
        /// The sequence number and the actor: secondary.
        case secondary
        /// The event's kind: emphasised.
        case kind
    }

    /// The event as the one line `barkeep watch` prints: `SEQ  AT  KIND  #N SCREEN  SUBJECT  FROM → TO  (REASON)  by
    /// ACTOR`. `style` wraps the secondary and emphasised parts (colour on a terminal); by default it adds nothing.
    public static func line(_ record: Record, style: (String, Part) -> String = { text, _ in text }) -> String {
        var text = "\(style(record["seq"] ?? "?", .secondary))  \(record["at"]?.prefix(19) ?? "")  "
        text += "\(style(record["kind"] ?? "?", .kind))  "
        // A finding's events name it by number and the screen owning it, which its subject (file:line) does not.
        if let finding = record["finding"] { text += "#\(finding) \(record["screen"] ?? "")  " }
        text += record["subject"] ?? ""
        if record["from"] != nil || record["to"] != nil {
            text += "  \(record["from"] ?? "∅") → \(record["to"] ?? "∅")"
        }
        if let reason = record["reason"] { text += "  (\(reason))" }
        text += "  \(style("by " + (record["actor"] ?? "?"), .secondary))"
        return text
    }
}
