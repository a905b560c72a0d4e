/// Durations and sizes as people write them on a command line (`90`, `10m`, `64MiB`), and back.
public enum QuantityText {
    /// Words as a sentence lists alternatives: `a`, `a or b`, `a, b or c`.
    public static func alternatives(_ words: [String]) -> String {
        listed(words, lastSeparator: " or ")
    }

    /// The raw values of a closed set as a sentence offers them, in declaration order, its default marked:
    /// `key (the default), work or owner`.
    public static func choices<Choice: CaseIterable & RawRepresentable & Equatable>(
        _ type: Choice.Type, default standard: Choice? = nil
    ) -> String where Choice.RawValue == String {
        alternatives(type.allCases.map { $0 == standard ? $0.rawValue + " (the default)" : $0.rawValue })
    }

    /// `words` joined for a sentence that names them all: `a, b and c`; one word alone; empty for none.
    public static func conjunction(_ words: [String]) -> String {
        listed(words, lastSeparator: " and ")
    }

    private static func listed(_ words: [String], lastSeparator: String) -> String {
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + lastSeparator + last
    }

    /// The seconds of `text`: a whole number of seconds, or a whole number followed by `s`, `m`, `h` or `d`;
    /// nil for anything else, or for a value past a year.
    public static func seconds(_ text: String) -> Int? {
        let units: [(suffix: String, scale: Int)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400), ("", 1)]
        return scaled(text, units: units, limit: 366 * 86_400)
    }

    /// The bytes of `text`: a whole number of bytes, or a whole number followed by `KiB`, `MiB` or `GiB` (also
    /// `K`, `M`, `G`, powers of 1,024 all); nil for anything else, or for a value past 1 TiB.
    public static func bytes(_ text: String) -> Int? {
        let units: [(suffix: String, scale: Int)] = [
            ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30),
            ("B", 1), ("", 1),
        ]
        return scaled(text, units: units, limit: 1 << 40)
    }

    /// `seconds` in the largest unit that divides it: `600` → `10m`, `90` → `90s`, `0` → `0s`.
    public static func describe(seconds: Int) -> String {
        for (suffix, scale) in [("d", 86_400), ("h", 3600), ("m", 60)] where seconds > 0 && seconds % scale == 0 {
            return "\(seconds / scale)\(suffix)"
        }
        return "\(seconds)s"
    }

    /// `bytes` in the largest binary unit that divides it: `67108864` → `64MiB`, `1000` → `1000B`.
    public static func describe(bytes: Int) -> String {
        for (suffix, scale) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes > 0 && bytes % scale == 0 {
            return "\(bytes / scale)\(suffix)"
        }
        return "\(bytes)B"
    }

    private static func scaled(_ text: String, units: [(suffix: String, scale: Int)], limit: Int) -> Int? {
        // Bytes, not Characters: a combining mark after a digit must not pass as that digit.
        let bytes = Array(text.utf8)
        for (suffix, scale) in units {
            let suffixBytes = Array(suffix.utf8)
            guard bytes.count > suffixBytes.count, bytes.suffix(suffixBytes.count).elementsEqual(suffixBytes) else {
                continue
            }
            let digits = bytes.dropLast(suffixBytes.count)
            // Eighteen digits stay below 10^18, so the number itself cannot overflow; the scaling is checked.
            guard digits.count <= 18, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let number = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            let (value, overflow) = number.multipliedReportingOverflow(by: scale)
            return overflow || value > limit ? nil : value
        }
        return nil
    }
}
