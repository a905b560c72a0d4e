import BarkeepCore
import BarkeepProtocol

/// The `OK` fields of an SDK check's INGEST: `run=N sdk=V project-sdk=V symbols=N found=N unblocked=N blocked=N
/// repeat=yes|no` (before `count`, which counts its `item` records).
public struct SDKCheckSummary: WireFields, Equatable {
    /// The run's number in the project.
    public var run = 0
    /// The SDK the check read.
    public var sdk = SDKVersion(0)
    /// The SDK the project builds with.
    public var projectSDK = ""
    /// The symbols it checked.
    public var symbols = 0
    /// Of those, the ones the SDK declares.
    public var found = 0
    /// Items it made workable.
    public var unblocked = 0
    /// Items it blocked.
    public var blocked = 0
    /// Whether the run already had this content (nothing changed).
    public var isRepeat = false

    /// An empty summary, filled by decoding.
    public init() {}

    /// The fields, in wire order.
    public static let fields: [Field<SDKCheckSummary>] = [
        Field("run", \.run, "The run's number in the project."),
        Field("sdk", \.sdk, "The SDK the check read."),
        Field("project-sdk", \.projectSDK, "The SDK the project builds with."),
        Field("symbols", \.symbols, "The symbols it checked."),
        Field("found", \.found, "Of those, the ones the SDK declares."),
        Field("unblocked", \.unblocked, "Items it made workable."),
        Field("blocked", \.blocked, "Items it blocked."),
        Field("repeat", \.isRepeat, "Whether the run already had this content: nothing changed."),
    ]
}
