/// A comment on a finding: one line of text kept in its history (an event), never a change of its status.
public enum FindingComment {
    /// The longest comment, in UTF-8 bytes (4 KiB).
    public static let maximumBytes = 4096

    /// Why `text` cannot be a comment; nil when it can: not blank, at most `maximumBytes`, one line (no control
    /// character but TAB).
    public static func refusal(of text: String) -> String? {
        if text.allSatisfy(\.isWhitespace) { return "a comment needs some text" }
        if text.utf8.count > maximumBytes {
            return "a comment is at most \(maximumBytes) bytes, not \(text.utf8.count)"
        }
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            return "a comment is one line, without control characters"
        }
        return nil
    }
}
