import BarkeepProtocol

extension EventFields {
    /// The event as one compact JSON line (keys sorted): what `barkeep watch --json` prints and a JSON webhook
    /// POSTs. `seq` and `finding` are numbers, `screens` an array, every other field a string; absent ones left out.
    public func jsonText() throws -> String {
        try Record.jsonText(json)
    }

    /// What a part of the text line is, for callers that style it.
    public enum LinePart: Sendable {
        /// The sequence number and the actor: secondary.
        case secondary
        /// The event's kind: emphasised.
        case kind
    }

    /// The event as the one line `barkeep watch` prints (and a Slack webhook posts): `SEQ  AT  KIND  #N SCREEN
    /// SUBJECT  FROM → TO  (REASON)  by ACTOR`. `clean` is applied to every text from the event (a terminal strips
    /// control characters); `style` wraps the secondary and emphasised parts (colour on a terminal). By default
    /// neither changes anything.
    public func line(
        clean: (String) -> String = { $0 }, style: (String, LinePart) -> String = { text, _ in text }
    ) -> String {
        var text = "\(style(String(seq), .secondary))  \(clean(String(at.prefix(19))))  "
        text += "\(style(clean(kind), .kind))  "
        // A finding's events name it by number and the screen owning it, which its subject (file:line) does not.
        if let finding { text += "#\(finding) \(clean(screen ?? ""))  " }
        text += clean(subject)
        if from != nil || to != nil {
            text += "  \(from.map(clean) ?? "∅") → \(to.map(clean) ?? "∅")"
        }
        if let reason { text += "  (\(clean(reason)))" }
        text += "  \(style("by " + clean(actor), .secondary))"
        return text
    }
}
