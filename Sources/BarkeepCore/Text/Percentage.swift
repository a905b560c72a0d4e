/// How a share of a whole is printed, in every view that prints one: a percentage that never says more than the
/// counts do. Nothing done reads `0%` and all done `100%`; anything between reads neither: `<1%` below one
/// percent, `>99%` above ninety-nine, else the whole percent rounded down.
public enum Percentage {
    /// `50%`, `<1%`, `>99%`; nil when there is nothing to count (`whole` is 0 or less).
    public static func text(_ part: Int, of whole: Int) -> String? {
        guard whole > 0 else { return nil }
        let part = min(max(part, 0), whole)
        if part == 0 { return "0%" }
        if part == whole { return "100%" }
        // part < whole, so part * 100 / whole < 100; compare in integers to keep exact shares exact.
        if part * 100 < whole { return "<1%" }
        if part * 100 > whole * 99 { return ">99%" }
        return "\(part * 100 / whole)%"
    }
}
