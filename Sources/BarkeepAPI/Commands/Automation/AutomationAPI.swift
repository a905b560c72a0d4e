import BarkeepProtocol

/// The commands of this noun declared by a spec: the SOURCE and HOOK commands, as they are converted.
public enum AutomationAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = []
}
