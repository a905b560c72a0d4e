extension SyncPlanner {
    /// Pass 3 of the identity, for renamed files: pairs stored findings that were open and are not seen now
    /// (`unseen`: not fixed, inside the scan's scope, matched by no scanned identity) whose file `renames` renames,
    /// with the scanned finding that matched no stored one (`unmatched`) of the same rule, normalized snippet and
    /// occurrence at the new path: the one whose identity is the stored finding's with the new path in place of the
    /// old.
    ///
    /// Each side pairs once by construction: a stored finding's key (rule, new path, normalized snippet,
    /// occurrence) is its identity's with the path replaced, and no two old paths share a new one (`FileRenames`),
    /// so no two stored findings share a key; a scan names each identity once. The pairs are therefore the same in
    /// any order of the scan or of the stored findings, and are listed by stored id. A stored finding whose
    /// normalized snippet or occurrence was not read pairs with nothing.
    static func pairRenamed(
        unseen: [StoredFinding], unmatched: [UInt32], renames: FileRenames, in scan: some SyncScan
    ) -> [SyncPlan.Rename] {
        guard !unseen.isEmpty, !unmatched.isEmpty, !renames.isEmpty else { return [] }
        var byKey: [RenameKey: Int] = [:]
        for (position, stored) in unseen.enumerated() {
            guard let newPath = renames.newPath(of: stored.file), let snippet = stored.normalizedSnippet,
                let occurrence = stored.occurrence
            else { continue }
            let key = RenameKey(rule: stored.rule, file: newPath, snippet: snippet, occurrence: occurrence)
            // Two old paths renamed to one (a map `FileRenames.parse` refuses, built by hand): the lowest id pairs.
            if let other = byKey[key], unseen[other].id < stored.id { continue }
            byKey[key] = position
        }
        guard !byKey.isEmpty else { return [] }
        let newPaths = Set(byKey.keys.lazy.map(\.file))
        var renamed: [SyncPlan.Rename] = []
        for index in unmatched.lazy.map(Int.init) {
            let file = scan.file(at: index)
            guard newPaths.contains(file) else { continue }
            let key = RenameKey(
                rule: scan.rule(at: index), file: file, snippet: scan.normalizedSnippet(at: index),
                occurrence: scan.occurrence(at: index))
            guard let position = byKey[key] else { continue }
            let stored = unseen[position]
            renamed.append(
                SyncPlan.Rename(id: stored.id, index: index, previousFile: stored.file, previousLine: stored.line))
        }
        return renamed.sorted { $0.id < $1.id }
    }
}

/// What pass 3 pairs on: a finding's identity parts but the tool (one sync is of one tool's findings).
private struct RenameKey: Hashable {
    var rule: String
    var file: String
    var snippet: String
    var occurrence: Int
}
