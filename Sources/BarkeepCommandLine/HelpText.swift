/// Help texts built from values (a list of keys from Core) rather than written out: wrapped as the hand-written
/// discussions are, so that both read alike.
public enum HelpText {
    /// `text` broken into lines of at most `width` characters at spaces (a longer word keeps a line of its own).
    public static func wrapped(_ text: String, width: Int = 104) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += " " + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
