/// What an SDK move does to one item it re-examines (an item needing symbols, in `FindingLifecycle.sdkReexamined`):
/// an item the SDK now lacks symbols for is blocked, remembering the status to go back to; a blocked item whose
/// symbols the SDK now declares goes back to that status.
public enum SDKTransition: Sendable, Equatable {
    /// Nothing changes.
    case unchanged
    /// The item stays blocked, for a new reason (what is missing now); no event of its own.
    case newReason(String)
    /// The item becomes blocked for the reason; its current status is remembered to go back to.
    case block(reason: String)
    /// The item is unblocked and goes back to the status.
    case unblock(to: FindingStatus)

    /// The transition of an item in `status` (blocked for `reason`, from `statusBeforeBlock`, when blocked) that
    /// gets `verdict` from the SDK now. A blocked item that remembers no status goes back to proposed.
    public init(verdict: SDKVerdict, status: FindingStatus, reason: String?, statusBeforeBlock: FindingStatus?) {
        switch (verdict, status) {
        case (.blocked(let newReason, _), .blocked):
            self = newReason == reason ? .unchanged : .newReason(newReason)
        case (.blocked(let newReason, _), _):
            self = .block(reason: newReason)
        case (.available, .blocked):
            self = .unblock(to: statusBeforeBlock ?? .proposed)
        case (.available, _):
            self = .unchanged
        }
    }
}
