/// What a check (`barkeep check`, CHECK) says of one finding: how the scan of a change stands against the project's
/// tracked findings, as a sync of that scan would class it, without the sync.
public enum CheckClass: String, Sendable, CaseIterable, Codable {
    /// No tracked finding matches it: the change adds it.
    case new
    /// It matches a fixed finding: the change brings it back.
    case reopened
    /// Pass 2 pairs it with an open finding whose flagged line the change edits.
    case changed
    /// It matches an open finding, or one with a sticky verdict (declined, kept, false positive): not new.
    case tracked
    /// A tracked finding the scan no longer reports: the sync would mark it fixed.
    case fixed

    /// Whether a finding of this class counts against the gate (`CheckGate`): the change adds it or brings it back.
    public var isAdded: Bool { self == .new || self == .reopened }
}

/// The answer of a check: whether the change passes its gate.
public enum CheckResult: String, Sendable, CaseIterable, Codable {
    /// No new or reopened finding at or above the gate's severity.
    case pass
    /// A new or reopened finding at or above it.
    case fail
}

/// The gate of a check: the one home of its default severity and of "at or above".
public enum CheckGate {
    /// The severity a check fails at unless told otherwise (`--fail-on`, `fail-on=`).
    public static let defaultFailOn = Severity.high

    /// Whether a finding of `severity` is at or above `failOn` in Core's order (critical first).
    public static func fails(_ severity: Severity, failOn: Severity) -> Bool { severity <= failOn }

    /// `fail` when one of the findings the change adds (`added`: the severities of its new and reopened findings)
    /// is at or above `failOn`; `pass` otherwise.
    public static func result(added: some Sequence<Severity>, failOn: Severity) -> CheckResult {
        added.contains { fails($0, failOn: failOn) } ? .fail : .pass
    }
}

/// The tracked state a check compares a scan with: today's, or as it stood after a run.
public enum CheckBase: Sendable, Equatable, Hashable {
    /// Today's tracked findings.
    case latest
    /// The findings as they stood after run `number` (approximately: see docs/sync.md, "Checks").
    case run(Int)

    /// The word for today's state.
    public static let latestWord = "latest"

    /// `latest`, or a run's number (1 or more); nil for anything else.
    public init?(text: String) {
        if text == Self.latestWord {
            self = .latest
        } else if let number = Int(text), number > 0, text.allSatisfy(\.isASCII) {
            self = .run(number)
        } else {
            return nil
        }
    }

    /// `latest` or the run's number.
    public var text: String {
        switch self {
        case .latest: Self.latestWord
        case .run(let number): String(number)
        }
    }
}

/// How many findings of each class a check found.
public struct CheckCounts: Sendable, Equatable, Codable {
    /// New in the change.
    public var new = 0
    /// Fixed ones the change brings back.
    public var reopened = 0
    /// Open ones whose flagged line the change edits (pass 2).
    public var changed = 0
    /// Already tracked (open, or a sticky verdict).
    public var tracked = 0
    /// Tracked ones the change fixes.
    public var fixes = 0

    /// Counts with the given values.
    public init(new: Int = 0, reopened: Int = 0, changed: Int = 0, tracked: Int = 0, fixes: Int = 0) {
        self.new = new
        self.reopened = reopened
        self.changed = changed
        self.tracked = tracked
        self.fixes = fixes
    }

    /// Adds one finding of `kind`.
    public mutating func count(_ kind: CheckClass) {
        switch kind {
        case .new: new += 1
        case .reopened: reopened += 1
        case .changed: changed += 1
        case .tracked: tracked += 1
        case .fixed: fixes += 1
        }
    }

    /// The counts and result as a `scan.checked` event's `to` says them: `new=1 reopened=0 changed=0 tracked=80
    /// fixes=3 result=fail`.
    public func eventText(result: CheckResult) -> String {
        "new=\(new) reopened=\(reopened) changed=\(changed) tracked=\(tracked) fixes=\(fixes) result=\(result.rawValue)"
    }
}

/// How long a project keeps its recorded checks (`scan.checked` events): unlike a sync's events they are no finding's
/// history, and a team records one per push of each pull request. Recording a check deletes at most
/// `deletedPerCheck` of the project's checks older than `days`: enough to keep up with any rate of checks (each
/// deletes more than it adds), bounded so that a check stays cheap after a long quiet spell.
public enum CheckRetention {
    /// The window, in days.
    public static let days = 90
    /// The most old checks one recorded check deletes.
    public static let deletedPerCheck = 100
}
