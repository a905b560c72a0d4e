import BarkeepProtocol

/// HOOK TEST's record (`type=test`): where the test event went and what the receiver answered.
public struct HookTestRecord: WireFields {
    /// `test`.
    public var type = "test"
    /// The hook's id.
    public var hook = 0
    /// Its URL.
    public var url = ""
    /// The receiver's answer, or why there was none.
    public var answer = ""
    /// Whether the receiver took it (a 2xx answer).
    public var isDelivered = false

    /// An empty record, filled by decoding.
    public init() {}

    /// The record's JSON object, as `barkeep hook test --json` prints it: without `type`.
    public var listJSON: [String: Any] {
        var object = json
        object.removeValue(forKey: "type")
        return object
    }

    /// The fields, in wire order.
    public static let fields: [Field<HookTestRecord>] = [
        Field("type", \.type, "test."),
        Field("hook", \.hook, "The hook's id."),
        Field("url", \.url, "Its URL."),
        Field("answer", \.answer, "The receiver's answer, or why there was none."),
        Field("delivered", \.isDelivered, "yes when the receiver answered 2xx."),
    ]
}
