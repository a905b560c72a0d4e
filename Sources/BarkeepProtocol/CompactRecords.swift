import BarkeepCore

/// Protocol 3's compact records (docs/protocol.md, HELLO): in a reply to one of `verbs`, a record whose `type` has
/// `counters` leaves out each of them whose value is, for `sums`, the sum of its parts, and for the others `0`; a
/// client reads an absent counter as that sum or `0`. Protocol 2 sends every counter. The one home of which keys may
/// be left out, for the server that leaves them out and for the client that puts them back.
public enum CompactRecords {
    /// The first protocol version whose replies are compact.
    public static let firstVersion = 3

    /// The requests whose replies are compact.
    public static let verbs: Set<String> = ["STATUS"]

    /// The keys of the untriaged and in-progress counts by severity (`untriaged-critical` …, `in-progress-critical`
    /// …), by stage, each in severity order.
    public static let stageKeys: [[String]] = [WorkStage.untriaged, .inProgress].map { stage in
        Severity.allCases.map { "\(stage.rawValue)-\($0.rawValue)" }
    }

    /// The counts of a dashboard line's work: needing work by severity, then by stage and severity, then `blocked`.
    public static let workCounters = Severity.allCases.map(\.rawValue) + stageKeys.joined() + ["blocked"]

    /// The counters that may be left out (when 0, or for `sums` when they are their sum), by record type, in the
    /// order a protocol-2 record has them: the dashboard's lines (a screen, an owner, the unmapped bucket), which hold
    /// some two dozen counters, most of them 0. The one `type=totals` keeps all of its counts.
    public static let counters: [String: [String]] = [
        "screen": workCounters + ["steps-done", "steps-applicable", "poses-passed", "poses-required"],
        "owner": ["screens-done", "needs-work"] + workCounters,
        AuditArea.unmapped: workCounters,
    ]

    /// The keys a record of the type has after its counters (none: the counters end it), so that a record whose
    /// counters were all left out gets them back where they stood.
    public static let keysAfterCounters: [String: Set<String>] = ["screen": ["failed-poses", "missing-poses", "done"]]

    /// The counters left out also when they equal the sum of other counters (and of `listSums`), and those others:
    /// the findings needing work of a severity when none of them is blocked (`high` = `untriaged-high` +
    /// `in-progress-high`), and a screen's required poses (`poses-passed` plus the poses `listSums` names). A client
    /// reads such a counter, when absent, as that sum (a part absent too counting as 0).
    public static let sums: [String: [String]] = Dictionary(
        uniqueKeysWithValues: Severity.allCases.indices.map { index in
            (Severity.allCases[index].rawValue, stageKeys.map { $0[index] })
        }
    ).merging(["poses-required": ["poses-passed"]]) { $1 }

    /// The comma-separated lists whose items a counter of `sums` adds to the sum of its counters: the required poses
    /// are those settled (`poses-passed`), failed and missing.
    public static let listSums: [String: [String]] = ["poses-required": ["failed-poses", "missing-poses"]]

    /// What `key` adds up to in `record` by `sums` and `listSums`; nil when it is no sum.
    public static func sum(of key: String, in record: Record) -> Int? {
        guard let parts = sums[key] else { return nil }
        let counted = parts.reduce(0) { $0 + (record[$1].flatMap { Int($0) } ?? 0) }
        return (listSums[key] ?? []).reduce(counted) { total, list in
            total + (record[list].map { $0.split(separator: ",").count } ?? 0)
        }
    }

    private static let counterPositions: [String: [String: Int]] = counters.mapValues { keys in
        Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    }

    /// Whether the replies to `verb` on a connection speaking `version` are compact.
    public static func applies(to verb: String, version: Int) -> Bool {
        version >= firstVersion && verbs.contains(verb)
    }

    /// `record` as protocol 3 sends it, when its type is compacted: without its counters of `sums` that equal their
    /// sum, nor its other counters that are 0.
    public static func compacted(_ record: Record) -> Record {
        guard let type = record["type"], let positions = counterPositions[type] else { return record }
        func isImplied(_ field: (key: String, value: String)) -> Bool {
            guard positions[field.key] != nil else { return false }
            // A sum goes only when it is its sum (so 0 then too): the client can only put the sum back.
            guard let implied = sum(of: field.key, in: record) else { return field.value == "0" }
            return Int(field.value) == implied
        }
        var compact = Record()
        compact.reserveCapacity(record.fields.count)
        for field in record.fields where !isImplied(field) { compact.append(field.key, field.value) }
        return compact
    }

    /// `record` with every counter of its type it may have left out put back, as the sum of its parts for `sums` and
    /// `0` for the others, in the order of `counters`, beside the counters it holds (or before `keysAfterCounters`,
    /// when it holds none): the protocol-2 record. A record of another type, or one that holds every counter, is
    /// returned as it is.
    public static func expanded(_ record: Record) -> Record {
        guard let type = record["type"], let keys = counters[type], let position = counterPositions[type] else {
            return record
        }
        let present = Set(record.fields.lazy.map(\.key).filter { position[$0] != nil })
        guard present.count < keys.count else { return record }
        var missing = keys.filter { !present.contains($0) }[...]
        var full = Record()
        full.reserveCapacity(record.fields.count + missing.count)
        var isInCounters = false
        for field in record.fields {
            if let index = position[field.key] {
                isInCounters = true
                while let next = missing.first, let nextIndex = position[next], nextIndex < index {
                    full.append(next, "0")
                    missing.removeFirst()
                }
            } else if isInCounters || (present.isEmpty && keysAfterCounters[type]?.contains(field.key) == true) {
                // The counters end here: the rest of them go before the field that follows them.
                isInCounters = false
                for key in missing { full.append(key, "0") }
                missing = []
            }
            full.append(field.key, field.value)
        }
        for key in missing { full.append(key, "0") }
        // The sums left out are the sums of their parts, now that every part is there.
        let absentSums = sums.filter { position[$0.key] != nil && !present.contains($0.key) }
        guard !absentSums.isEmpty else { return full }
        var summed = Record()
        summed.reserveCapacity(full.fields.count)
        for field in full.fields {
            let value = absentSums[field.key] != nil ? sum(of: field.key, in: full).map(String.init) : nil
            summed.append(field.key, value ?? field.value)
        }
        return summed
    }

    /// The records of a reply to `verb` with every counter put back: what a client of protocol 3 reads where a
    /// client of protocol 2 read the records as they came.
    public static func expanded(_ records: [Record], verb: String) -> [Record] {
        verbs.contains(verb) ? records.map(expanded) : records
    }
}
