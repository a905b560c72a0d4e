import BarkeepCore
import Foundation

/// The protocol's times and the report's ways of showing them, read and written by Core's Timestamp (calendar
/// arithmetic on UTC), so output never depends on the machine's time zone, locale or calendar.
public enum ReportTime {
    /// Parses `2026-11-29T12:00:00.123456Z` (fraction optional, up to 9 digits kept to the microsecond, always
    /// UTC); nil when malformed.
    public static func parse(_ text: String) -> Date? { Timestamp.date(text, .utc) }

    /// `2026-11-29 12:00 UTC`: UTC, to the minute (seconds are dropped, not rounded).
    public static func minute(_ date: Date) -> String {
        let parts = Timestamp.fields(of: date)
        let pad = Timestamp.pad
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) \(pad(parts.hour, 2)):"
            + "\(pad(parts.minute, 2)) UTC"
    }

    /// How long before `now` a moment was, coarsely: `just now`, `12 min ago`, `3 h ago`, `5 d ago`. A moment
    /// after `now` (clock skew between hosts) reads `just now`.
    public static func age(of date: Date, now: Date) -> String {
        let seconds = Int(max(0, now.timeIntervalSince(date)).rounded(.down))
        switch seconds {
        case ..<60: return "just now"
        case ..<3_600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3_600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }
}
