/// Who owns a screen, as every owner filter reads it (`status --owner`, `screen list --owner`, `findings --owner`,
/// MCP's `owner`): a person's name, or `nobody` for the screens no one owns. The dashboard's owner table names the
/// screens no one owns by the same word.
public enum ScreenOwner {
    /// The word for no owner, in any case: `--owner nobody` selects the screens no one owns, and the owner table's
    /// row of those screens is called so. A filter cannot name a person called nobody.
    public static let nobody = "nobody"

    /// Whether an owner filter's word means no owner.
    public static func isNobody(_ filter: String) -> Bool {
        filter.lowercased() == nobody
    }

    /// Whether a screen owned by `owner` (nil: no one) passes the owner filter `filter`.
    public static func matches(_ owner: String?, filter: String) -> Bool {
        isNobody(filter) ? owner == nil : owner == filter
    }

    /// Whether a row of `kind` owned by `owner` passes `filter`: as `matches(_:filter:)`, except that nobody's
    /// rows leave out the app area, which the owner table leaves out too (it is the app's, not a screen).
    public static func matches(_ owner: String?, kind: ScreenKind, filter: String) -> Bool {
        matches(owner, filter: filter) && !(isNobody(filter) && kind == .area)
    }

    /// Why `name` cannot be given to a screen as its owner, or nil when it can: `nobody` (in any case) is the word
    /// for no owner, so a person of that name could never be told apart from the screens no one owns.
    public static func refusal(ofOwner name: String) -> String? {
        isNobody(name)
            ? "\(ValueExcerpt.quoted(name)) is the word for no owner and cannot be a screen's owner; an empty owner removes one"
            : nil
    }

    /// How the dashboard names the owner of a row: the name, or `nobody`.
    public static func display(_ owner: String?) -> String {
        owner ?? nobody
    }
}
