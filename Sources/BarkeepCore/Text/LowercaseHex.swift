/// Lowercase hexadecimal text: the one check of what a SHA-256 name (a screenshot's), a session secret and a git
/// commit id look like before they are used.
public enum LowercaseHex {
    /// Whether `text` is only the digits `0-9a-f`, and as many as `digits` allows.
    public static func isValid(_ text: some StringProtocol, digits: ClosedRange<Int>) -> Bool {
        digits.contains(text.utf8.count)
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `text` is a commit id as git prints one and may be given as a revision: 4 to 64 digits (an
    /// abbreviation up to SHA-256), never something git could read as an option or a revision expression.
    public static func isCommitID(_ text: some StringProtocol) -> Bool { isValid(text, digits: 4...64) }

    /// Whether `text` is a SHA-256 in lowercase hex: 64 digits.
    public static func isSHA256(_ text: some StringProtocol) -> Bool { isValid(text, digits: 64...64) }
}
