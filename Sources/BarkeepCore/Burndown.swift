import Foundation

/// A point of the burndown: how much work was left at a moment of the project's history.
public struct BurndownPoint: Sendable, Equatable {
    /// `run 12`, `2026-11-29`, or `now` for the changes after the last run.
    public var label: String
    /// When: the run's time, or the last change of the day.
    public var at: Date
    /// Findings needing work then (proposed, approved, applied, blocked).
    public var needsWork: Int
    /// Of those, the blocked ones.
    public var blocked: Int

    /// A point.
    public init(label: String, at: Date, needsWork: Int, blocked: Int) {
        self.label = label
        self.at = at
        self.needsWork = needsWork
        self.blocked = blocked
    }
}

/// Rebuilds the work left over time from the event log: each finding's status follows its `finding.new` and
/// `finding.status` events, and a point is taken after each scan run (`scan.ingested`) or at the end of each day.
/// A first import (`FirstImport`) announces its findings in its `scan.ingested` event alone: they count as proposed
/// from then on, and a later `finding.status` of one of them moves it from its `from` status.
public enum Burndown {
    /// One event, as far as the burndown cares.
    public struct Change: Sendable, Equatable {
        /// The event's kind: `finding.new`, `finding.status` or `scan.ingested` (others are ignored).
        public var kind: String
        /// The finding it is about.
        public var findingID: Int64?
        /// The status it moved to (the counts, for a scan).
        public var to: String?
        /// Its subject (`run 12` for a scan).
        public var subject: String
        /// When.
        public var at: Date
        /// The status it moved from.
        public var from: String?
        /// Why (`FirstImport.reason` for a first import's scan).
        public var reason: String?

        /// A change.
        public init(
            kind: String, findingID: Int64?, to: String?, subject: String, at: Date, from: String? = nil,
            reason: String? = nil
        ) {
            self.kind = kind
            self.findingID = findingID
            self.to = to
            self.subject = subject
            self.at = at
            self.from = from
            self.reason = reason
        }
    }

    /// Where the points are taken.
    public enum Granularity: String, Sendable, CaseIterable {
        /// After each scan run, and `now` after the last run when something changed since.
        case run
        /// At the end of each day (UTC) on which something changed.
        case day
    }

    /// The points of `changes` (in sequence order).
    public static func points(_ changes: [Change], by granularity: Granularity) -> [BurndownPoint] {
        var statuses: [Int64: FindingStatus] = [:]
        var needsWork = 0
        var blocked = 0
        var points: [BurndownPoint] = []
        var pending: (label: String, at: Date)?
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        func day(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        func flush() {
            if let point = pending {
                points.append(BurndownPoint(label: point.label, at: point.at, needsWork: needsWork, blocked: blocked))
            }
            pending = nil
        }
        for change in changes {
            if granularity == .day, let current = pending, current.label != day(change.at) { flush() }
            switch change.kind {
            case EventKind.findingNew.rawValue, EventKind.findingStatus.rawValue:
                guard let id = change.findingID, let status = change.to.flatMap(FindingStatus.init(rawValue:))
                else { continue }
                // A finding of a first import has no `finding.new`: its status before is the event's `from`.
                if let old = statuses[id] ?? change.from.flatMap(FindingStatus.init(rawValue:)) {
                    needsWork -= old.needsWork ? 1 : 0
                    blocked -= old == .blocked ? 1 : 0
                }
                statuses[id] = status
                needsWork += status.needsWork ? 1 : 0
                blocked += status == .blocked ? 1 : 0
                pending = granularity == .day ? (day(change.at), change.at) : (pending ?? ("now", change.at))
                if granularity == .run { pending?.at = change.at }
            case EventKind.scanIngested.rawValue:
                if change.reason == FirstImport.reason {
                    // Its new findings, all proposed, are announced by this event alone.
                    needsWork += change.to.flatMap(SyncCounts.newCount(inEventText:)) ?? 0
                    if granularity == .day { pending = (day(change.at), change.at) }
                }
                guard granularity == .run else { continue }
                pending = (change.subject, change.at)
                flush()
            default:
                continue
            }
        }
        flush()
        return points
    }
}
