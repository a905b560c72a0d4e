/// A finding already stored, as the sync needs to see it.
public struct StoredFinding: Sendable, Equatable {
    /// The database id.
    public var id: Int64
    /// The identity digest.
    public var identity: String
    /// Its rule: pass 2 pairs only findings of the same rule and file, which the digest cannot tell.
    public var rule: String
    /// Its status now.
    public var status: FindingStatus
    /// The line it was last seen at.
    public var line: Int?
    /// Its file, for scoped scans.
    public var file: String
    /// Its snippet without white space, for pass 3 (renamed files); nil when not read.
    public var normalizedSnippet: String?
    /// Its occurrence index, for pass 3 (renamed files); nil when not read.
    public var occurrence: Int?

    /// Creates a stored finding.
    public init(
        id: Int64, identity: String, rule: String, status: FindingStatus, line: Int?, file: String,
        normalizedSnippet: String? = nil, occurrence: Int? = nil
    ) {
        self.id = id
        self.identity = identity
        self.rule = rule
        self.status = status
        self.line = line
        self.file = file
        self.normalizedSnippet = normalizedSnippet
        self.occurrence = occurrence
    }
}

/// A stored finding as pass 1 of the sync sees it: enough to match it to a scanned identity.
public struct StoredSighting: Sendable, Equatable {
    /// The database id.
    public var id: Int64
    /// The identity digest; nil when the stored text is not a digest's hex (it then matches nothing).
    public var identity: IdentityDigest?
    /// Its status now.
    public var status: FindingStatus
    /// The line it was last seen at.
    public var line: Int?

    /// Creates a sighting.
    public init(id: Int64, identity: IdentityDigest?, status: FindingStatus, line: Int?) {
        self.id = id
        self.identity = identity
        self.status = status
        self.line = line
    }

    /// The sighting of a stored finding.
    public init(_ finding: StoredFinding) {
        self.init(
            id: finding.id, identity: IdentityDigest(hex: finding.identity), status: finding.status, line: finding.line)
    }
}

/// Pass 1 of a sync plan (`SyncPlanner.match`): the matches and the unmatched scanned findings, and which stored
/// findings pass 2 and the fixes look at.
public struct SyncMatching: Sendable, Equatable {
    /// The plan so far: `new` (before pass 2), `matches` and their counts.
    public var plan: SyncPlan
    /// Positions among the stored sightings of the findings neither seen nor fixed, in order.
    public var unseen: [Int]
}

/// How many findings each transition touched; stored on the run and returned to the caller.
public struct SyncCounts: Sendable, Equatable, Codable {
    /// Not seen before: created as proposed.
    public var new = 0
    /// Present before, absent now, and not a sticky verdict: marked fixed.
    public var fixed = 0
    /// Fixed before, present again: back to proposed.
    public var reopened = 0
    /// Present before and now (status untouched; line and snippet refreshed).
    public var unchanged = 0
    /// Unchanged findings whose line or file changed (a subset of `unchanged`).
    public var moved = 0
    /// Open findings whose flagged line was edited in place (pass 2): they take the new identity and keep the rest.
    public var changed = 0
    /// Open findings whose file was renamed (pass 3): they take the new file and identity and keep the rest. A subset
    /// of `moved`.
    public var renamed = 0

    /// The counts as a `scan.ingested` event's `to` says them: `new=12 fixed=3 reopened=0 unchanged=80 moved=4
    /// changed=1 renamed=0`.
    public var eventText: String {
        "new=\(new) fixed=\(fixed) reopened=\(reopened) unchanged=\(unchanged) moved=\(moved) changed=\(changed) "
            + "renamed=\(renamed)"
    }

    /// The count of new findings in a `scan.ingested` event's `to` (`eventText`); nil when it has none.
    public static func newCount(inEventText text: String) -> Int? {
        for word in text.split(separator: " ") where word.hasPrefix("new=") {
            return Int(word.dropFirst(4))
        }
        return nil
    }

    /// Counts with the given values.
    public init(
        new: Int = 0, fixed: Int = 0, reopened: Int = 0, unchanged: Int = 0, moved: Int = 0, changed: Int = 0,
        renamed: Int = 0
    ) {
        self.new = new
        self.fixed = fixed
        self.reopened = reopened
        self.unchanged = unchanged
        self.moved = moved
        self.changed = changed
        self.renamed = renamed
    }
}

/// What a scan changes, computed without touching the database; the store applies it in one transaction.
public struct SyncPlan: Sendable, Equatable {
    /// A scanned finding that matches a stored one.
    public struct Match: Sendable, Equatable {
        /// The stored finding's id.
        public var id: Int64
        /// The finding as scanned now: its index in the scan.
        public var index: Int
        /// The stored finding's position among those the plan was given.
        public var position: Int
        /// Its line changed.
        public var isMoved: Bool
        /// It was fixed and is back: a regression.
        public var isReopened: Bool
    }

    /// A stored finding the scan no longer reports.
    public struct Fix: Sendable, Equatable {
        /// The stored finding's id.
        public var id: Int64
        /// Its status before the fix.
        public var previousStatus: FindingStatus
    }

    /// A stored finding that was open, is not seen now, and is the same finding as a scanned identity that matched
    /// nothing: its flagged line was edited in place (pass 2). It keeps its row and takes the new identity.
    public struct Change: Sendable, Equatable {
        /// The stored finding's id.
        public var id: Int64
        /// The finding as scanned now, with its new identity: its index in the scan.
        public var index: Int
        /// The line the stored finding was last seen at.
        public var previousLine: Int
    }

    /// A stored finding that was open, is not seen now, and whose file the upload's renames rename: the same
    /// finding as the scanned identity of its rule, normalized snippet and occurrence at the new path (pass 3). It
    /// keeps its row and takes the new file and identity.
    public struct Rename: Sendable, Equatable {
        /// The stored finding's id.
        public var id: Int64
        /// The finding as scanned now, at the new path: its index in the scan.
        public var index: Int
        /// The file the stored finding was in.
        public var previousFile: String
        /// The line the stored finding was last seen at.
        public var previousLine: Int?
    }

    /// Findings to create, by their index in the scan (32 bits: a first import holds one per finding).
    public var new: [UInt32] = []
    /// Findings seen again (unchanged, moved or reopened).
    public var matches: [Match] = []
    /// Findings to mark fixed.
    public var fixed: [Fix] = []
    /// Findings edited in place, in the order they were paired.
    public var changed: [Change] = []
    /// Findings whose file was renamed, by stored id.
    public var renamed: [Rename] = []
    /// Findings a person marked verified that this scan still reports (seen, moved, renamed or edited in place), by
    /// id in the order of `matches`, `renamed`, then `changed`: their status stays, but the fix did not make the
    /// scanner stop reporting them, which every view must say (`FindingLifecycle.verifiedStillReported`).
    public var verifiedReported: [Int64] = []
    /// The counts.
    public var counts = SyncCounts()
}

/// The sync rules of DESIGN.md, as one pure function.
public enum SyncPlanner {
    /// Plans the effect of a complete scan of one tool on that tool's stored findings.
    ///
    /// - A finding not seen before is new (proposed).
    /// - One seen before and present now is unchanged (moved if its line changed); a fixed one present again is
    ///   reopened. Sticky verdicts (declined, kept, false positive) and blocked items keep their status.
    /// - One present before and absent now is fixed, unless its status is a sticky verdict, and only when its file
    ///   is inside `scope` (a path prefix; empty for the whole project).
    /// - Pass 3, after exact matching and only with `renames`: one not fixed, inside `scope`, absent now, in a file
    ///   that `renames` renames, and the scanned identity that matched nothing with its rule, normalized snippet and
    ///   occurrence at the new path, are one finding renamed (see `pairRenamed`): unchanged and moved.
    /// - Pass 2, after pass 3: one not fixed, inside `scope` and absent now, and a scanned identity that matched
    ///   nothing, of the same rule and file and at most `changeDistance` lines apart, are one finding `changed` in
    ///   place (see `pairChanged`), neither new nor fixed.
    /// - A verified one the scan reports (seen, moved, renamed or changed) stays verified and is listed in
    ///   `verifiedReported`.
    public static func plan(
        scan: some SyncScan, stored: [StoredFinding], scope: String = "", renames: FileRenames = FileRenames()
    ) -> SyncPlan {
        let matching = match(scan: scan, stored: stored.map(StoredSighting.init))
        return finish(matching, unseen: matching.unseen.map { stored[$0] }, scope: scope, renames: renames, in: scan)
    }

    /// Pass 1 of `plan`: matches the scan's identities to the stored findings' (each seen, moved or reopened), and
    /// lists the stored findings neither seen nor fixed, whose rule and file `finish` needs. A store reads those
    /// details for the few unseen findings only, not for every stored one.
    public static func match(scan: some SyncScan, stored: [StoredSighting]) -> SyncMatching {
        var plan = SyncPlan()
        // Stored findings by identity, as positions in `stored`, and which were seen.
        var byIdentity: [IdentityDigest: Int] = [:]
        byIdentity.reserveCapacity(stored.count)
        for (position, finding) in stored.enumerated() {
            // A stored identity that is not a digest's hex matches nothing scanned.
            if let identity = finding.identity { byIdentity[identity] = position }
        }
        var isSeen = [Bool](repeating: false, count: stored.count)

        for index in 0..<scan.count {
            // The identity includes the occurrence, so one scan cannot name the same identity twice.
            // With nothing stored (a first import) nothing can match: no identity is hashed here.
            guard !byIdentity.isEmpty, let position = byIdentity[scan.identity(at: index)] else {
                plan.new.append(UInt32(truncatingIfNeeded: index))
                continue
            }
            guard !isSeen[position] else { continue }
            isSeen[position] = true
            let existing = stored[position]
            let isReopened = existing.status == .fixed
            let isMoved = !isReopened && existing.line != scan.line(at: index)
            plan.matches.append(
                SyncPlan.Match(
                    id: existing.id, index: index, position: position, isMoved: isMoved, isReopened: isReopened)
            )
            if existing.status == .verified { plan.verifiedReported.append(existing.id) }
            if isReopened {
                plan.counts.reopened += 1
            } else {
                plan.counts.unchanged += 1
                if isMoved { plan.counts.moved += 1 }
            }
        }
        let unseen = stored.indices.filter { !isSeen[$0] && stored[$0].status != .fixed }
        return SyncMatching(plan: plan, unseen: unseen)
    }

    /// Pass 1 against fixed findings read apart from the others: a store that reads only the findings not fixed
    /// (an aging project keeps every finding it ever fixed) looks up, by identity, the fixed ones among the scanned
    /// findings `match` left unmatched (`matching.plan.new`), and hands them here as `fixed`, whose positions follow
    /// the `stored` that `match` was given (`offset`, its count). Each scanned finding that is one of them is
    /// reopened, exactly as if `match` had been given them too: the matches stay in the scan's order.
    public static func reopen(
        _ matching: inout SyncMatching, fixed: [StoredSighting], positionsFrom offset: Int, in scan: some SyncScan
    ) {
        var byIdentity: [IdentityDigest: Int] = [:]
        for (position, finding) in fixed.enumerated() where finding.status == .fixed {
            if let identity = finding.identity { byIdentity[identity] = position }
        }
        guard !byIdentity.isEmpty else { return }
        var reopened: [SyncPlan.Match] = []
        matching.plan.new.removeAll { index in
            guard let position = byIdentity.removeValue(forKey: scan.identity(at: Int(index))) else { return false }
            reopened.append(
                SyncPlan.Match(
                    id: fixed[position].id, index: Int(index), position: offset + position, isMoved: false,
                    isReopened: true))
            return true
        }
        guard !reopened.isEmpty else { return }
        matching.plan.counts.reopened += reopened.count
        // Both lists are in the scan's order; merged, they are what one pass over every stored finding yields.
        var merged: [SyncPlan.Match] = []
        merged.reserveCapacity(matching.plan.matches.count + reopened.count)
        var (left, right) = (matching.plan.matches[...], reopened[...])
        while let first = left.first, let second = right.first {
            if first.index < second.index {
                merged.append(first)
                left = left.dropFirst()
            } else {
                merged.append(second)
                right = right.dropFirst()
            }
        }
        merged += left
        merged += right
        matching.plan.matches = merged
    }

    /// Passes 3 and 2 of `plan` and the fixes: `unseen` holds the stored findings at `matching.unseen`, in that
    /// order (with their normalized snippets and occurrences when `renames` is not empty).
    public static func finish(
        _ matching: SyncMatching, unseen candidates: [StoredFinding], scope: String,
        renames: FileRenames = FileRenames(), in scan: some SyncScan
    ) -> SyncPlan {
        var plan = matching.plan
        // The open findings not seen now, inside the scope, may be the unmatched scanned ones renamed or edited.
        var unseen = candidates.filter { $0.status != .fixed && isInside($0.file, scope: scope) }
        // Those a person marked verified: one paired by pass 3 or 2 is still reported.
        let verified = Set(unseen.lazy.filter { $0.status == .verified }.map(\.id))
        // Pass 3, with renames only: a finding in a renamed file is the same finding at the new path.
        let renamed =
            renames.isEmpty ? [] : pairRenamed(unseen: unseen, unmatched: plan.new, renames: renames, in: scan)
        if !renamed.isEmpty {
            let renamedIDs = Set(renamed.map(\.id))
            let renamedIndices = Set(renamed.map(\.index))
            plan.new.removeAll { renamedIndices.contains(Int($0)) }
            plan.verifiedReported += renamed.lazy.map(\.id).filter(verified.contains)
            unseen.removeAll { renamedIDs.contains($0.id) }
            plan.renamed = renamed
            plan.counts.renamed = renamed.count
            plan.counts.unchanged += renamed.count
            plan.counts.moved += renamed.count
        }
        // Pass 2: what is left may be the unmatched scanned ones edited in place.
        let pairs = pairChanged(unseen: unseen, unmatched: plan.new, in: scan)
        var pairedIDs = Set<Int64>()
        var pairedIndices = Set<Int>()
        for pair in pairs {
            pairedIDs.insert(pair.id)
            pairedIndices.insert(pair.index)
        }
        if !pairs.isEmpty { plan.new.removeAll { pairedIndices.contains(Int($0)) } }
        plan.changed = pairs
        plan.counts.changed = pairs.count
        if !verified.isEmpty { plan.verifiedReported += pairs.lazy.map(\.id).filter(verified.contains) }
        plan.counts.new = plan.new.count

        for finding in unseen where !finding.status.isSticky && !pairedIDs.contains(finding.id) {
            plan.fixed.append(SyncPlan.Fix(id: finding.id, previousStatus: finding.status))
        }
        plan.counts.fixed = plan.fixed.count
        return plan
    }

    /// Whether `file` is inside the scope: the scope is a path prefix matched at a component boundary
    /// (`Sources/Inbox` holds `Sources/Inbox/List.swift`, not `Sources/InboxView.swift`); a scope ending in `/` is
    /// a raw prefix. Paths are compared byte for byte (UTF-8), as the schema's `barkeep_covers` does, not by
    /// Swift's canonical equivalence: a precomposed and a decomposed name are different paths on disk, and a
    /// combining mark after a `/` must not hide the boundary (ScopeCoverageTests ties the two).
    public static func isInside(_ file: String, scope: String) -> Bool {
        guard !scope.isEmpty else { return true }
        let path = file.utf8
        let prefix = scope.utf8
        if prefix.last == UInt8(ascii: "/") { return path.starts(with: prefix) }
        guard path.starts(with: prefix) else { return false }
        let rest = path.dropFirst(prefix.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }
}

/// A scan as the planner reads it: each finding's identity and line, and for pass 2 its rule and file.
public protocol SyncScan {
    /// The findings' count.
    var count: Int { get }
    /// Finding `index`'s identity.
    func identity(at index: Int) -> IdentityDigest
    /// Finding `index`'s line.
    func line(at index: Int) -> Int
    /// Finding `index`'s rule.
    func rule(at index: Int) -> String
    /// Finding `index`'s file.
    func file(at index: Int) -> String
    /// Finding `index`'s snippet without white space (`FindingIdentity.normalize`), for pass 3.
    func normalizedSnippet(at index: Int) -> String
    /// Finding `index`'s occurrence index, for pass 3.
    func occurrence(at index: Int) -> Int
}

extension IdentifiedScan: SyncScan {
    /// The findings' count.
    public var count: Int { occurrences.count }
    /// Finding `index`'s line.
    public func line(at index: Int) -> Int { Int(table.rows[index].line) }
    /// Finding `index`'s rule.
    public func rule(at index: Int) -> String { table.string(at: table.rows[index].rule) ?? "" }
    /// Finding `index`'s file.
    public func file(at index: Int) -> String { table.string(at: table.rows[index].file) ?? "" }
    /// Finding `index`'s snippet without white space.
    public func normalizedSnippet(at index: Int) -> String {
        var normalized: [UInt8] = []
        table.withText(at: table.rows[index].snippet) { FindingIdentity.appendNormalized($0, to: &normalized) }
        return String(decoding: normalized, as: UTF8.self)
    }
    /// Finding `index`'s occurrence index.
    public func occurrence(at index: Int) -> Int { Int(occurrences[index]) }
}

extension Array: SyncScan where Element == IdentifiedFinding {
    /// Finding `index`'s identity (an `IdentifiedFinding`'s hex read back).
    public func identity(at index: Int) -> IdentityDigest {
        IdentityDigest(hex: self[index].identity) ?? IdentityDigest(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    /// Finding `index`'s line.
    public func line(at index: Int) -> Int { self[index].finding.line }
    /// Finding `index`'s rule.
    public func rule(at index: Int) -> String { self[index].finding.rule }
    /// Finding `index`'s file.
    public func file(at index: Int) -> String { self[index].finding.file }
    /// Finding `index`'s snippet without white space.
    public func normalizedSnippet(at index: Int) -> String { self[index].normalizedSnippet }
    /// Finding `index`'s occurrence index.
    public func occurrence(at index: Int) -> Int { self[index].occurrence }
}
