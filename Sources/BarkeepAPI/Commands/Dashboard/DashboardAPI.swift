import BarkeepProtocol

/// The commands of this noun declared by a spec: STATUS and BURNDOWN, as they are converted.
public enum DashboardAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [StatusRequest.self, BurndownRequest.self]
}
