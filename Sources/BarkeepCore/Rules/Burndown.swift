import Foundation

/// A point of the burndown: how much work was left at a moment of the project's history.
public struct BurndownPoint: Sendable, Equatable {
    /// `run 12`, `2026-11-29`, `2026-W48`, or `now` for the changes after the last run.
    public var label: String
    /// When: the run's time (its commit's when known), or the last change of the day or week.
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
/// `finding.status` events, and a point is taken after each scan run (`scan.ingested`) or at the end of each day or
/// week. A first import (`FirstImport`) announces its findings in its `scan.ingested` event alone: they count as
/// proposed from then on, and a later `finding.status` of one of them moves it from its `from` status.
///
/// When a change counts: what a scan run changed, at the time of the commit it scanned when the upload said
/// (`runCommitTime`), so that a history of old commits ingested in one sitting spreads over the days its commits
/// were made; any other change at the time it was stored, but never after the commit time of the next run that has
/// one (a verdict given today between two old commits ingested counts with the later of them: the state it made is
/// the one that run started from). The changes are replayed in the order they were stored, and time never runs
/// backwards: a change that would count before one replayed earlier (a run of an older commit forced in after newer
/// work) counts at that one's time.
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
        /// The commit time of the scan run whose ingest stored the change, when the upload gave it: when the change
        /// counts.
        public var runCommitTime: Date?

        /// A change.
        public init(
            kind: String, findingID: Int64?, to: String?, subject: String, at: Date, from: String? = nil,
            reason: String? = nil, runCommitTime: Date? = nil
        ) {
            self.kind = kind
            self.findingID = findingID
            self.to = to
            self.subject = subject
            self.at = at
            self.from = from
            self.reason = reason
            self.runCommitTime = runCommitTime
        }
    }

    /// Where the points are taken.
    public enum Granularity: String, Sendable, CaseIterable {
        /// After each scan run, and `now` after the last run when something changed since.
        case run
        /// At the end of each day (UTC) on which something changed.
        case day
        /// At the end of each ISO 8601 week (Monday to Sunday, UTC) in which something changed.
        case week

        /// The granularity a burndown takes when none is asked for.
        public static let standard = Granularity.run

        /// The granularities, as usage messages list them: `run, day or week`.
        public static let names = QuantityText.alternatives(allCases.map(\.rawValue))

        /// The label of the day or week holding `date`: `2026-11-29`, `2026-W48`; nil for `run`.
        public func label(of date: Date) -> String? {
            let days = Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
            switch self {
            case .run:
                return nil
            case .day:
                let civil = CivilCalendar.date(days: days)
                return String(format: "%04lld-%02lld-%02lld", civil.year, civil.month, civil.day)
            case .week:
                // 1970-01-01 was a Thursday; an ISO week belongs to the year of its Thursday.
                let weekday = ((days + 3) % 7 + 7) % 7  // 0 for Monday
                let thursday = days - weekday + 3
                let year = CivilCalendar.date(days: thursday).year
                let week = (thursday - CivilCalendar.days(year: year, month: 1, day: 1)) / 7 + 1
                return String(format: "%04lld-W%02lld", year, week)
            }
        }
    }

    /// The points of `changes` (in sequence order).
    public static func points(_ changes: [Change], by granularity: Granularity) -> [BurndownPoint] {
        var statuses: [Int64: FindingStatus] = [:]
        var needsWork = 0
        var blocked = 0
        var points: [BurndownPoint] = []
        var pending: (label: String, at: Date)?
        let times = countingTimes(changes)
        func flush() {
            if let point = pending {
                points.append(BurndownPoint(label: point.label, at: point.at, needsWork: needsWork, blocked: blocked))
            }
            pending = nil
        }
        for (change, at) in zip(changes, times) {
            var change = change
            change.at = at
            let period = granularity.label(of: change.at)
            if let period, let current = pending, current.label != period { flush() }
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
                pending = period.map { ($0, change.at) } ?? (pending ?? ("now", change.at))
                if granularity == .run { pending?.at = change.at }
            case EventKind.scanIngested.rawValue:
                if change.reason == FirstImport.reason {
                    // Its new findings, all proposed, are announced by this event alone.
                    needsWork += change.to.flatMap(SyncCounts.newCount(inEventText:)) ?? 0
                    if let period { pending = (period, change.at) }
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

    /// When each of `changes` counts (see the type's description): its run's commit time, else its own time but no
    /// later than the next such commit time; then never before the change before it.
    static func countingTimes(_ changes: [Change]) -> [Date] {
        var times = changes.map(\.at)
        var next: Date?
        for index in changes.indices.reversed() {
            if let commitTime = changes[index].runCommitTime {
                times[index] = commitTime
                next = commitTime
            } else if let next, next < times[index] {
                times[index] = next
            }
        }
        for index in times.indices.dropFirst() where times[index] < times[index - 1] {
            times[index] = times[index - 1]
        }
        return times
    }
}
