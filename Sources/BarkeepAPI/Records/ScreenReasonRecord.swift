import BarkeepProtocol

/// A reason a screen is not done: a `type=why` record of SCREEN SHOW.
public struct ScreenReasonRecord: WireFields {
    /// What it is about: `findings`, `step` or `pose`.
    public var topic = ""
    /// The reason, in words.
    public var text = ""

    /// An empty record, filled by decoding.
    public init() {}
    /// The reason `text` about `topic`.
    public init(topic: String, text: String) {
        self.topic = topic
        self.text = text
    }

    /// The fields, in wire order.
    public static let fields: [Field<ScreenReasonRecord>] = [
        Field("topic", \.topic, "findings, step or pose."),
        Field("text", \.text, "The reason, in words."),
    ]
}
