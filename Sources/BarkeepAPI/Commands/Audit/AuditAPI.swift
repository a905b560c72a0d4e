import BarkeepProtocol

/// The commands of this noun declared by a spec: ITEM ADD/SET/REMOVE, SDK SET, BLOCKED, POSE RECORD/HISTORY and POSES, as they are converted.
public enum AuditAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [
        ItemAddRequest.self, ItemSetRequest.self, ItemRemoveRequest.self, SDKSetRequest.self, BlockedRequest.self,
        PoseRecordRequest.self, PoseHistoryRequest.self, PosesRequest.self, ScreenshotPutRequest.self,
        ScreenshotGetRequest.self,
    ]
}
