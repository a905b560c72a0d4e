import Foundation

/// A commit's committer time as git prints it with `%cI` (strict ISO 8601: `2026-11-30T10:00:00+01:00`), read and
/// written by Timestamp.
public enum CommitTime {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, strictly: an upper-case `T`, a real calendar date, an
    /// offset always given (`Z` or hours and minutes with a colon, at most ±23:59), seconds 00 to 59, at most nine
    /// fraction digits (kept to the microsecond). Anything else is nil.
    public static func parse(_ text: String) -> Date? { Timestamp.date(text, .iso8601) }

    /// `date` in UTC to the second, `2026-11-30T09:00:00Z`: how messages name a commit time.
    public static func text(_ date: Date) -> String { Timestamp.text(date, fractionDigits: 0) }
}
