import BarkeepProtocol

/// The commands of this noun declared by a spec: FINDINGS, FINDING SHOW/SET/ASSIGN/COMMENT and MINE, as they are converted.
public enum FindingAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [
        FindingsRequest.self, FindingShowRequest.self, FindingSetRequest.self, FindingAssignRequest.self,
        FindingCommentRequest.self, MineRequest.self,
    ]
}
