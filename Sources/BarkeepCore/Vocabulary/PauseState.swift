/// Whether a sync source or a webhook works or is paused: the `state=` of their records on the wire.
public enum PauseState: String, Sendable, CaseIterable {
    /// It runs (a source) or delivers (a hook).
    case active
    /// It is stopped until someone resumes it (a hook also pauses itself after too many failures in a row).
    case paused

    /// `paused` when `isPaused`, else `active`.
    public init(isPaused: Bool) { self = isPaused ? .paused : .active }
}
