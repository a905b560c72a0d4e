import BarkeepProtocol

extension EventFields {
    /// The JSON object `barkeep finding comment --json` prints (and MCP's comment_finding): as the wire has it, every
    /// field a string but `seq` (`finding` and `screens` as their text, unlike `json`).
    public var commentJSON: [String: Any] {
        var object = json
        object["finding"] = finding.map { String($0) }
        object["screens"] = screens.map { $0.joined(separator: ",") }
        return object
    }
}
