/// The rules for names users choose: projects, screens, tokens. The schema checks the same rules.
public enum Names {
    /// A project name: 1 to 64 characters of `A-Z a-z 0-9 . _ -`, starting with a letter or digit.
    public static func isValidProject(_ name: String) -> Bool {
        isValid(name, maximumLength: 64, extra: "._-")
    }

    /// A token name: like a project name, with `@` allowed (`ci@github`).
    public static func isValidToken(_ name: String) -> Bool {
        isValid(name, maximumLength: 64, extra: "._@-")
    }

    private static func isValid(_ name: String, maximumLength: Int, extra: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= maximumLength,
            isAlphanumeric(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { isAlphanumeric($0) || extra.unicodeScalars.contains($0) }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
