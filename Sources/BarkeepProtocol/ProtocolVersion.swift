/// The versions of the line protocol (docs/protocol.md) that this build speaks, sent and checked in `HELLO`.
///
/// Version 3 leaves out of `STATUS`'s dashboard lines the counters that are 0 and those equal to the sum of their
/// parts (`CompactRecords` says which); version 2 sends every counter. Version 2 names runs, findings and items by their number in their project, so every command that
/// names one takes the project too (`FINDING SHOW PROJECT N`); version 1 named them by ids shared across projects.
///
/// A new version is made when a client of the version before would misread what it gets (an absent counter read as
/// 0) or a request changes meaning; not for a field added to a reply, which clients ignore when they do not know
/// it (docs/protocol.md, section 4): `HELLO`'s `max-upload` (the server's upload limit) came to 2 and 3 alike.
public enum ProtocolVersion {
    /// The version this build's clients speak: the newest.
    public static let current = 3

    /// The versions a server of this build speaks; a `HELLO` naming another is `BADARG`.
    public static let supported = 2...3

    /// The version of a connection that has not named one (no `HELLO`, or one without `protocol=`).
    public static let assumed = 2

    /// The version `text` names when a server of this build speaks it: decimal digits only, no sign or leading
    /// zero. Nil otherwise.
    public static func spoken(_ text: String) -> Int? {
        guard let version = Int(text), String(version) == text, supported.contains(version) else { return nil }
        return version
    }
}
