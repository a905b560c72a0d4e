/// What a webhook's body is: the event's JSON object, or a Slack-compatible message.
public enum HookFormat: String, Sendable, CaseIterable {
    /// The event as `barkeep watch --json` prints it.
    case json
    /// `{"text": LINE}` with the line `barkeep watch` prints, for Slack's and compatible incoming webhooks.
    case slack

    /// The formats, comma-separated, for messages.
    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")
}
