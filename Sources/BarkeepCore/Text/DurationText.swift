/// Durations as options write them: a number with a unit, `250ms`, `5s`, `1.5s`, `2m`; a bare number is seconds.
public enum DurationText {
    /// The duration `text` says; nil for anything else (no number, an unknown unit, a negative value).
    public static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        var number = Substring(text)
        var scale = 1000.0
        for unit in units where text.hasSuffix(unit.suffix) {
            number = text.dropLast(unit.suffix.count)
            scale = unit.milliseconds
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite, value >= 0, value * scale <= 1e12
        else { return nil }
        return .milliseconds(Int64((value * scale).rounded()))
    }

    /// `duration` the way `parse` reads it: whole seconds as `5s`, anything else in milliseconds (`250ms`).
    public static func describe(_ duration: Duration) -> String {
        let milliseconds = Int64(duration.milliseconds.rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
