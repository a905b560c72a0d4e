/// The version of the line protocol (docs/protocol.md) that this build speaks, sent and checked in `HELLO`.
///
/// Version 2 names runs, findings and items by their number in their project, so every command that names one
/// takes the project too (`FINDING SHOW PROJECT N`); version 1 named them by ids shared across projects.
public enum ProtocolVersion {
    /// The only version this build speaks.
    public static let current = 2
}
