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
        "\(ValueExcerpt.quoted(name)) is not a name to assign: 1 to 64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit, "
            + "or \(none) for no one"
    }

    /// The person a token's name stands for: the part before its first `@` (`dana@laptop` → `dana`, one person's
    /// tokens on several machines), or the whole name without one (`ci`). Nil when that part could not be assigned.
    public static func person(ofToken tokenName: String) -> String? {
        let person = String(tokenName.prefix { $0 != "@" })
        return isValid(person) ? person : nil
    }

    /// The person an event actor stands for: `token:NAME` → `person(ofToken: NAME)`, `local:USER` → USER; nil for
    /// any other actor (`anonymous`, `source:3`) or a name that could not be assigned.
    public static func name(ofActor actor: String) -> String? {
        if actor.hasPrefix("token:") { return person(ofToken: String(actor.dropFirst("token:".count))) }
        guard actor.hasPrefix("local:") else { return nil }
        let name = String(actor.dropFirst("local:".count))
        return isValid(name) ? name : nil
    }
}
