import BarkeepProtocol

/// The commands of this noun declared by a spec: PING, QUIT, HELLO, STATS and WATCH, as they are converted.
public enum SessionAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [
        PingRequest.self, QuitRequest.self, HelloRequest.self, StatsRequest.self, WatchRequest.self, EventsRequest.self,
    ]
}
