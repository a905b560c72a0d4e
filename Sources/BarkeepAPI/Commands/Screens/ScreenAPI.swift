import BarkeepProtocol

/// The commands of this noun declared by a spec: the SCREEN commands, as they are converted.
public enum ScreenAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [
        ScreenAddRequest.self, ScreenListRequest.self, ScreenShowRequest.self, ScreenSetRequest.self,
        ScreenRemoveRequest.self, ScreenUsesRequest.self, ScreenDismissRequest.self, ScreenDismissalsRequest.self,
        ScreenExcludeRequest.self, ScreenExclusionsRequest.self,
    ]
}
