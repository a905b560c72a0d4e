import BarkeepProtocol

/// The commands of this noun declared by a spec: the SOURCE and HOOK commands.
public enum AutomationAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [
        SourceAddRequest.self, SourceListRequest.self, SourceShowRequest.self, SourcePauseRequest.self,
        SourceResumeRequest.self, SourceRunRequest.self, SourceRemoveRequest.self,
        HookAddRequest.self, HookListRequest.self, HookRemoveRequest.self, HookPauseRequest.self,
        HookResumeRequest.self, HookTestRequest.self,
    ]
}
