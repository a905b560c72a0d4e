/// Who a finding is assigned to: a person's name, written like a token name (`ana`, `ci@github`), so that the
/// name a token carries is the name its holder is assigned by. `none` is no one.
public enum Assignee {
    /// The word for no one: `finding assign … none`, `findings --assignee none`. No one can be assigned by it.
    public static let none = "none"

    /// Whether `name` can be assigned: a token name (Names.isValidToken) other than `none` in any case.
    public static func isValid(_ name: String) -> Bool {
        Names.isValidToken(name) && name.lowercased() != none
    }

    /// What is wrong with `name`, for a refusal.
    public static func rule(for name: String) -> String {
        "'\(name)' is not a name to assign: 1 to 64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit, "
            + "or \(none) for no one"
    }

    /// The person an event actor stands for: `token:NAME` → NAME, `local:USER` → USER; nil for any other actor
    /// (`anonymous`, `source:3`) or a name that could not be assigned.
    public static func name(ofActor actor: String) -> String? {
        for prefix in ["token:", "local:"] where actor.hasPrefix(prefix) {
            let name = String(actor.dropFirst(prefix.count))
            return isValid(name) ? name : nil
        }
        return nil
    }
}
