/// When a source runs next: its interval while it succeeds, doubling after each failure in a row.
public enum SourceSchedule {
    /// The longest wait between two attempts of a failing source, whatever its interval: six hours.
    public static let longestBackoff = 6 * 3600

    /// The seconds to wait before the next attempt of a source checked every `every` seconds that has failed
    /// `failures` times in a row: `every` while it succeeds and after its first failure, then twice as long after
    /// each further failure, up to `longestBackoff` (or `every`, when that is longer).
    public static func delay(every: Int, failures: Int) -> Int {
        guard failures > 1 else { return every }
        guard every < longestBackoff else { return every }
        let cap = longestBackoff
        var delay = every
        for _ in 1..<min(failures, 40) {
            delay *= 2
            if delay >= cap { return cap }
        }
        return delay
    }
}
