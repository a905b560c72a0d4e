/// A scanner finding with the identity Barkeep tracks it by.
public struct IdentifiedFinding: Sendable, Equatable {
    /// The finding as reported.
    public var finding: ScanFinding
    /// The snippet with every white-space character removed.
    public var normalizedSnippet: String
    /// Its rank by line among the scan's findings with the same rule, file and normalized snippet (0 first).
    public var occurrence: Int
    /// SHA-256 (hex) of tool, rule, file, normalized snippet and occurrence: what the database keys on.
    public var identity: String
}

/// The identity rule of DESIGN.md: a scanner finding is (tool, rule, file, normalized snippet, occurrence), never
/// its line. Code that moves keeps its identity; three identical lines in one file are three findings, told apart
/// by their order.
public enum FindingIdentity {
    /// The snippet without any white space, so re-indentation or reformatting inside a line changes nothing.
    public static func normalize(_ snippet: String) -> String {
        // ASCII, the common case, byte by byte; anything else through Unicode's white-space property.
        if snippet.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = snippet.utf8.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }
            return String(decoding: bytes, as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in snippet.unicodeScalars where !scalar.properties.isWhitespace { scalars.append(scalar) }
        return String(scalars)
    }

    /// The identity digest of one finding's parts, joined by the unit separator (U+001F), hashed by `hasher`, as hex.
    public static func digest(
        tool: String, rule: String, file: String, normalizedSnippet: String, occurrence: Int,
        hasher: some IdentityHasher
    ) -> String {
        var text: [UInt8] = []
        appendEscaped(Array(tool.utf8), to: &text)
        text.append(separator)
        appendEscaped(Array(rule.utf8), to: &text)
        text.append(separator)
        appendEscaped(Array(file.utf8), to: &text)
        text.append(separator)
        appendEscaped(Array(normalizedSnippet.utf8), to: &text)
        text.append(separator)
        text += Array(String(occurrence).utf8)
        return text.withUnsafeBytes { hasher.digest($0) }.hex
    }

    private static let separator: UInt8 = 0x1F

    /// Appends `part` with each unit separator written as ESC `/` and each ESC (U+001B) doubled, so that a joined
    /// text splits back into its parts one way only.
    ///
    /// A scan can put a unit separator in any part (JSON's `\u001f`, a file name): unescaped, rule `a␟b` in file `c`
    /// and rule `a` in file `b␟c` had one identity, and one scan's two findings merged into one (a probe of the
    /// `identity` fuzz target). Escaping changes only parts holding U+001F or U+001B, which real ones never do, so
    /// the identities already stored stay the same. Both are ASCII, so bytes and scalars escape alike.
    private static func appendEscaped<Bytes: Collection<UInt8>>(_ part: Bytes, to text: inout [UInt8]) {
        guard part.contains(where: { $0 == 0x1F || $0 == 0x1B }) else { return text.append(contentsOf: part) }
        for byte in part {
            switch byte {
            case 0x1B: text += [0x1B, 0x1B]
            case 0x1F: text += [0x1B, UInt8(ascii: "/")]
            default: text.append(byte)
            }
        }
    }

    /// Appends the UTF-8 of `snippet` without its white space, as `normalize` does.
    public static func appendNormalized(_ snippet: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
        // ASCII, the common case, byte by byte; anything else through Unicode's white-space property.
        if snippet.allSatisfy({ $0 < 0x80 }) {
            for byte in snippet where !(byte == 0x20 || (0x09...0x0D).contains(byte)) { text.append(byte) }
            return
        }
        for scalar in String(decoding: snippet, as: UTF8.self).unicodeScalars where !scalar.properties.isWhitespace {
            text.append(contentsOf: String(scalar).utf8)
        }
    }

    /// Appends the part of a finding's identity text that its group shares: rule, file and normalized snippet.
    fileprivate static func appendGroupKey(of row: ScanTable.Row, in table: ScanTable, to text: inout [UInt8]) {
        table.withText(at: row.rule) { appendEscaped($0, to: &text) }
        text.append(separator)
        table.withText(at: row.file) { appendEscaped($0, to: &text) }
        text.append(separator)
        // Normalized in place, escaped afterwards in the rare snippet that needs it: no buffer of its own.
        let start = text.count
        table.withText(at: row.snippet) { appendNormalized($0, to: &text) }
        if text[start...].contains(where: { $0 == 0x1F || $0 == 0x1B }) {
            let normalized = Array(text[start...])
            text.removeSubrange(start...)
            appendEscaped(normalized, to: &text)
        }
    }

    /// Appends the whole identity text of finding `index`: tool, group key and occurrence.
    fileprivate static func appendIdentityText(
        of index: Int, in table: ScanTable, occurrence: UInt32, to text: inout [UInt8]
    ) {
        appendEscaped(table.tool.utf8, to: &text)
        text.append(separator)
        appendGroupKey(of: table.rows[index], in: table, to: &text)
        text.append(separator)
        if occurrence < 10 {
            text.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: occurrence))
        } else {
            text += String(occurrence).utf8
        }
    }

    /// Gives every finding of a scan its occurrence index. The identities themselves are hashed with `hasher` here
    /// when `keepingDigests` (a sync that matches every identity against stored ones), otherwise when asked for
    /// (`IdentifiedScan.identity(at:)`): a first import asks only as it writes the rows, and holds no 32 bytes a finding.
    ///
    /// Occurrence = rank by line (then by the scan's own order) within (rule, file, normalized snippet). The groups
    /// are found by sorting the findings by a 64-bit hash of that key, then line, then order, with no string per
    /// finding; within a run of equal hashes the keys themselves are compared (one key is the common case; a hash
    /// collision is told apart there), so the grouping costs 12 bytes a finding while it sorts (and half that for the
    /// sort's own buffer). When `keepingDigests`, each finding's identity text is built once: its digest as
    /// occurrence 0 (the scan's tool is one, so equal digests are equal keys) gives the hash and the comparison, and
    /// only the findings ranked after the first of their key are hashed again, with their occurrence.
    public static func identify(_ table: ScanTable, hasher: some IdentityHasher, keepingDigests: Bool = false)
        -> IdentifiedScan
    {
        let count = table.count
        var digests: [IdentityDigest] = []
        if keepingDigests { digests.reserveCapacity(count) }
        var places = [GroupPlace](unsafeUninitializedCapacity: count) { buffer, initialized in
            var text: [UInt8] = []
            for index in 0..<count {
                text.removeAll(keepingCapacity: true)
                let hash: UInt64
                if keepingDigests {
                    appendIdentityText(of: index, in: table, occurrence: 0, to: &text)
                    let digest = text.withUnsafeBytes { hasher.digest($0) }
                    digests.append(digest)
                    hash = digest.prefix
                } else {
                    appendGroupKey(of: table.rows[index], in: table, to: &text)
                    var keyHasher = Hasher()
                    text.withUnsafeBytes { keyHasher.combine(bytes: $0) }
                    hash = UInt64(bitPattern: Int64(keyHasher.finalize()))
                }
                buffer[index] = GroupPlace(
                    high: UInt32(truncatingIfNeeded: hash >> 32), low: UInt32(truncatingIfNeeded: hash),
                    index: UInt32(truncatingIfNeeded: index))
            }
            initialized = count
        }
        table.rows.withUnsafeBufferPointer { rows in
            places.sort { a, b in
                (a.high, a.low, rows[Int(a.index)].line, a.index) < (b.high, b.low, rows[Int(b.index)].line, b.index)
            }
        }
        var occurrences = [UInt32](repeating: 0, count: count)
        var start = 0
        while start < count {
            var end = start + 1
            while end < count, places[end].high == places[start].high, places[end].low == places[start].low {
                end += 1
            }
            // The places themselves, not a copy of their indices: one key may hold every finding of the scan.
            if end - start > 1 {
                if keepingDigests {
                    rank(places[start..<end], byDigest: digests, into: &occurrences)
                } else {
                    rank(places[start..<end], of: table, into: &occurrences)
                }
            }
            start = end
        }
        guard keepingDigests else { return IdentifiedScan(table: table, occurrences: occurrences, hasher: hasher) }
        var text: [UInt8] = []
        for index in 0..<count where occurrences[index] != 0 {
            text.removeAll(keepingCapacity: true)
            appendIdentityText(of: index, in: table, occurrence: occurrences[index], to: &text)
            digests[index] = text.withUnsafeBytes { hasher.digest($0) }
        }
        return IdentifiedScan(table: table, occurrences: occurrences, digests: digests, hasher: hasher)
    }

    /// Ranks the findings of `places` (one hash, in (line, order) order) within their keys, told apart by their
    /// digests as occurrence 0: usually one key, whose members rank 0, 1, 2…
    private static func rank(
        _ places: ArraySlice<GroupPlace>, byDigest digests: [IdentityDigest], into occurrences: inout [UInt32]
    ) {
        let first = digests[Int(places[places.startIndex].index)]
        if places.allSatisfy({ digests[Int($0.index)] == first }) {
            for (rank, place) in places.enumerated() {
                occurrences[Int(place.index)] = UInt32(truncatingIfNeeded: rank)
            }
            return
        }
        var ranks: [IdentityDigest: UInt32] = [:]
        for place in places {
            let digest = digests[Int(place.index)]
            occurrences[Int(place.index)] = ranks[digest, default: 0]
            ranks[digest, default: 0] += 1
        }
    }

    /// Ranks the findings of `places` (one key hash, in (line, order) order) within their keys: usually one key, whose
    /// members rank 0, 1, 2…; a hash collision splits them by key.
    private static func rank(_ places: ArraySlice<GroupPlace>, of table: ScanTable, into occurrences: inout [UInt32]) {
        let indices = places.lazy.map { Int($0.index) }
        var first: [UInt8] = []
        appendGroupKey(of: table.rows[Int(places[places.startIndex].index)], in: table, to: &first)
        var text: [UInt8] = []
        var isOneKey = true
        for (rank, index) in indices.enumerated() {
            text.removeAll(keepingCapacity: true)
            appendGroupKey(of: table.rows[index], in: table, to: &text)
            guard text == first else {
                isOneKey = false
                break
            }
            occurrences[index] = UInt32(truncatingIfNeeded: rank)
        }
        guard !isOneKey else { return }
        var ranks: [[UInt8]: UInt32] = [:]
        for index in indices {
            text.removeAll(keepingCapacity: true)
            appendGroupKey(of: table.rows[index], in: table, to: &text)
            occurrences[index] = ranks[text, default: 0]
            ranks[text, default: 0] += 1
        }
    }

    /// Gives every finding of one scan its identity, in the scan's order, hashed by `hasher`: the same identities as
    /// `identify(_:hasher:)`, as strings (for tests and tools).
    public static func identify(_ findings: [ScanFinding], tool: String, hasher: some IdentityHasher)
        -> [IdentifiedFinding]
    {
        let scan = identify(ScanTable(ScanReport(format: .duoScan, tool: tool, findings: findings)), hasher: hasher)
        return findings.indices.map { index in
            IdentifiedFinding(
                finding: findings[index],
                normalizedSnippet: normalize(findings[index].snippet),
                occurrence: Int(scan.occurrences[index]),
                identity: scan.identity(at: index).hex
            )
        }
    }
}

/// Where a finding sorts when its group is looked for: the 64-bit hash of its group key (as two halves: 12 bytes a
/// finding rather than 16 while they sort), then its line, then its place in the scan.
private struct GroupPlace {
    var high: UInt32
    var low: UInt32
    var index: UInt32
}

/// A scan with its findings' occurrence indices: what the sync plans and writes from. Identities are kept when the
/// sync matches them all, otherwise hashed when asked for, so that a first import holds no 32 bytes per finding
/// besides its table.
public struct IdentifiedScan: Sendable {
    /// The scan.
    public let table: ScanTable
    /// Each finding's occurrence index, in the table's order.
    public let occurrences: [UInt32]
    /// Each finding's identity, in the table's order, when they were hashed with the occurrences; nil otherwise.
    public let digests: [IdentityDigest]?
    private let hasher: any IdentityHasher

    /// A scan with its occurrences, whose identities `hasher` computes (or computed: `digests`).
    public init(table: ScanTable, occurrences: [UInt32], digests: [IdentityDigest]? = nil, hasher: any IdentityHasher) {
        self.table = table
        self.occurrences = occurrences
        self.digests = digests
        self.hasher = hasher
    }

    /// Finding `index`'s identity: kept, or hashed now.
    public func identity(at index: Int) -> IdentityDigest {
        if let digests { return digests[index] }
        var text: [UInt8] = []
        FindingIdentity.appendIdentityText(of: index, in: table, occurrence: occurrences[index], to: &text)
        return text.withUnsafeBytes { hasher.digest($0) }
    }
}
