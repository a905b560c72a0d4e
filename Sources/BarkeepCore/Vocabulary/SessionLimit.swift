/// The bounds of a web session (docs/design/web-dashboard.md, section 2): their one home.
public enum SessionLimit {
    /// How long a session lasts from sign-in, in seconds, when `--session-lifetime` is not given: 12 hours, absolute
    /// (using the session does not extend it).
    public static let defaultLifetimeSeconds = 12 * 60 * 60
    /// The lifetimes `--session-lifetime` accepts, in seconds: a minute to 30 days.
    public static let lifetimeSeconds = 60...(30 * 24 * 60 * 60)
    /// How many random bytes a session's cookie value and its CSRF token each carry.
    public static let secretBytes = 32
    /// How many expired sessions creating one deletes at most: enough to keep up, bounded so sign-in stays cheap.
    public static let expiredDeletedPerCreate = 100
}
