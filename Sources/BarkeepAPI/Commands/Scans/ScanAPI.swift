import BarkeepProtocol

/// The commands of this noun declared by a spec: INGEST, CHECK, RUNS and RUN SHOW, as they are converted.
public enum ScanAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [
        IngestUploadRequest.self, CheckUploadRequest.self, RunsRequest.self, RunShowRequest.self,
    ]
}
