/// The rules for names users choose: projects, screens, tokens. The schema checks the same rules.
public enum Names {
    /// The most characters of a project name, and of a token name.
    public static let maximumNameLength = 64
    /// The most characters of a screen key.
    public static let maximumScreenKeyLength = 128

    /// A project name: 1 to 64 characters of `A-Z a-z 0-9 . _ -`, starting with a letter or digit.
    public static func isValidProject(_ name: String) -> Bool {
        isValid(name, maximumLength: maximumNameLength, extra: "._-")
    }

    /// A token name: like a project name, with `@` allowed (`ci@github`).
    public static func isValidToken(_ name: String) -> Bool {
        isValid(name, maximumLength: maximumNameLength, extra: "._@-")
    }

    /// A screen key: 1 to 128 characters of `A-Z a-z 0-9 . _ -`, starting with a letter or digit, and not a
    /// built-in place (`unmapped`, `app`: AuditArea) in any case.
    public static func isValidScreenKey(_ key: String) -> Bool {
        isValid(key, maximumLength: maximumScreenKeyLength, extra: "._-") && !AuditArea.isReserved(key)
    }

    /// A source path glob owning a screen: not empty, at most 1,024 characters, no control character and no comma
    /// (lists of globs are written comma-separated; `?` matches a comma in a file name).
    public static func isValidGlob(_ glob: String) -> Bool {
        !glob.isEmpty && glob.utf8.count <= 1024
            && !glob.unicodeScalars.contains { $0 == "," || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// An SDK symbol as the symbol table writes it: `axisBehavior`, `UIBarButtonItem.axisBehavior`,
    /// `cameraCapture(sceneConfiguration:userInfo:)`. Up to 200 characters.
    public static func isValidSymbol(_ symbol: String) -> Bool {
        guard let first = symbol.unicodeScalars.first, symbol.unicodeScalars.count <= 200,
            isAlphanumeric(first) && !("0"..."9").contains(first) || first == "_"
        else { return false }
        return symbol.unicodeScalars.allSatisfy { isAlphanumeric($0) || "_.:()".unicodeScalars.contains($0) }
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
