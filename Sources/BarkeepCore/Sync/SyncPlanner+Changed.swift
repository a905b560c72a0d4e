extension SyncPlanner {
    /// How far, in lines, a scanned finding may be from where an open finding was last seen to be that finding
    /// edited in place (pass 2 of DESIGN.md's identity).
    public static let changeDistance = 3

    /// Pass 2 of the identity: pairs stored findings that were open and are not seen now (`unseen`: not fixed,
    /// inside the scan's scope, matched by no scanned identity) with scanned findings that matched no stored one
    /// (`unmatched`), when rule and file are equal and the lines at most `changeDistance` apart.
    ///
    /// Pairing is greedy over every candidate pair, by (distance, old line, new line, old identity, new identity)
    /// ascending, and each side pairs at most once: an edit takes the nearest candidate, and the order never depends
    /// on the order of the scan or of the database rows. A stored finding without a line has no place to compare
    /// and pairs with nothing.
    static func pairChanged(unseen: [StoredFinding], unmatched: [UInt32], in scan: some SyncScan) -> [SyncPlan.Change] {
        guard !unseen.isEmpty, !unmatched.isEmpty else { return [] }
        // The scanned findings by rule, file and line: each stored finding looks up the few lines around its own.
        var scannedAt: [Place: [Int]] = [:]
        for (position, index) in unmatched.lazy.map(Int.init).enumerated() {
            scannedAt[
                Place(rule: scan.rule(at: index), file: scan.file(at: index), line: scan.line(at: index)), default: []
            ]
            .append(position)
        }
        var candidates: [Candidate] = []
        for (old, stored) in unseen.enumerated() {
            guard let oldLine = stored.line else { continue }
            for newLine in (oldLine - changeDistance)...(oldLine + changeDistance) {
                for new in scannedAt[Place(rule: stored.rule, file: stored.file, line: newLine)] ?? [] {
                    candidates.append(
                        Candidate(
                            distance: abs(newLine - oldLine), oldLine: oldLine, newLine: newLine,
                            oldIdentity: stored.identity, newIdentity: scan.identity(at: Int(unmatched[new])).hex,
                            old: old, new: new
                        )
                    )
                }
            }
        }
        candidates.sort()
        var isOldPaired = [Bool](repeating: false, count: unseen.count)
        var isNewPaired = [Bool](repeating: false, count: unmatched.count)
        var changes: [SyncPlan.Change] = []
        for candidate in candidates where !isOldPaired[candidate.old] && !isNewPaired[candidate.new] {
            isOldPaired[candidate.old] = true
            isNewPaired[candidate.new] = true
            changes.append(
                SyncPlan.Change(
                    id: unseen[candidate.old].id, index: Int(unmatched[candidate.new]), previousLine: candidate.oldLine)
            )
        }
        return changes
    }
}

/// Where a scanned finding is, for pass 2.
private struct Place: Hashable {
    var rule: String
    var file: String
    var line: Int
}

/// A stored and a scanned finding that pass 2 may pair.
private struct Candidate: Comparable {
    var distance: Int
    var oldLine: Int
    var newLine: Int
    var oldIdentity: String
    var newIdentity: String
    var old: Int
    var new: Int

    static func < (a: Candidate, b: Candidate) -> Bool {
        (a.distance, a.oldLine, a.newLine, a.oldIdentity, a.newIdentity)
            < (b.distance, b.oldLine, b.newLine, b.oldIdentity, b.newIdentity)
    }
}
