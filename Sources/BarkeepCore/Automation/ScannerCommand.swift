/// How a sync source's scanner command is prepared: its `{root}` placeholder and the environment it runs with.
///
/// Pure functions, so the daemon and its tests agree on exactly what `/bin/sh -c` receives.
public enum ScannerCommand {
    /// The placeholder replaced by the checkout's directory, already quoted for the shell.
    public static let rootPlaceholder = "{root}"

    /// The daemon's variables a scanner inherits: enough to find programs, write temporary files and pick a locale,
    /// and nothing else — the daemon's own settings (database URLs, tokens) must not reach a repository's tools.
    public static let allowedVariables: [String] = [
        "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "USER", "LOGNAME",
    ]

    /// The search path a scanner gets when the daemon has none.
    public static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// `template` with every `{root}` replaced by `root` quoted for `/bin/sh`, so a path with spaces or quotes stays
    /// one word. The placeholder must therefore stand unquoted in the template: `'{root}'` would unquote it again.
    public static func expand(_ template: String, root: String) -> String {
        let quotedRoot = quoted(root)
        var result = ""
        var rest = template[...]
        while let range = rest.firstRange(of: rootPlaceholder) {
            result += rest[..<range.lowerBound]
            result += quotedRoot
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// `text` as one single-quoted `/bin/sh` word: inside single quotes nothing is special, and a single quote is
    /// written as `'\''` (close, escaped quote, reopen).
    public static func quoted(_ text: String) -> String {
        // Scalars, not Characters: a quote followed by a combining mark is one Character that is not "'", yet the
        // shell still sees the quote byte.
        var result = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" { result += #"'\''"# } else { result.unicodeScalars.append(scalar) }
        }
        return result + "'"
    }

    /// The scanner's environment: the daemon's variables on the allow-list (`PATH` set to `defaultPath` when missing
    /// or empty), then `extra`, which wins over them.
    public static func environment(
        from daemonEnvironment: [String: String],
        adding extra: [String: String]
    ) -> [String: String] {
        var result: [String: String] = [:]
        for name in allowedVariables {
            if let value = daemonEnvironment[name] { result[name] = value }
        }
        if result["PATH", default: ""].isEmpty { result["PATH"] = defaultPath }
        result.merge(extra) { _, added in added }
        return result
    }
}
