import Dispatch

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

    /// The identity digest of one finding's parts, joined by the unit separator (U+001F).
    public static func digest(tool: String, rule: String, file: String, normalizedSnippet: String, occurrence: Int)
        -> String
    {
        // A scan can put a unit separator in any part (JSON's `\u001f`, a file name): unescaped, rule `a␟b` in file
        // `c` and rule `a` in file `b␟c` had one identity, and one scan's two findings merged into one (a probe of the
        // `identity` fuzz target). Escaping changes only parts holding U+001F or U+001B, which real ones never do, so
        // the identities already stored stay the same.
        let text =
            "\(escaped(tool))\u{1F}\(escaped(rule))\u{1F}\(escaped(file))\u{1F}\(escaped(normalizedSnippet))"
            + "\u{1F}\(occurrence)"
        return SHA256.hexDigest(of: text.utf8)
    }

    /// `part` with each unit separator written as ESC `/` and each ESC (U+001B) doubled, so that a joined text
    /// splits back into its parts one way only; a part without either is returned as it is.
    private static func escaped(_ part: String) -> String {
        guard part.utf8.contains(where: { $0 == 0x1F || $0 == 0x1B }) else { return part }
        var escaped = String.UnicodeScalarView()
        for scalar in part.unicodeScalars {
            switch scalar {
            case "\u{1B}": escaped.append(contentsOf: "\u{1B}\u{1B}".unicodeScalars)
            case "\u{1F}": escaped.append(contentsOf: "\u{1B}/".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Where the parallel digest loop writes. `@unchecked Sendable`: each iteration writes only its own indices of
    /// the buffer, which `identify` owns until the loop ends.
    private struct Output: @unchecked Sendable {
        let base: UnsafeMutablePointer<String>?
    }

    /// The value behind `slot`: reading a dictionary's `default:` subscript through `inout` stores the default when
    /// the key is missing, with one lookup.
    private static func value(_ slot: inout Int) -> Int { slot }

    /// Gives every finding of one scan its identity, in the scan's order.
    public static func identify(_ findings: [ScanFinding], tool: String) -> [IdentifiedFinding] {
        let normalized = findings.map { normalize($0.snippet) }
        // Occurrence = rank by line (then by the scan's own order) within (rule, file, normalized snippet).
        struct Key: Hashable {
            var rule: String
            var file: String
            var snippet: String
        }
        // Each finding's group, numbered in order of first appearance: one hash per finding into a table sized once,
        // and an array of indices only for the few groups with more than one member.
        var groupNumbers: [Key: Int] = [:]
        groupNumbers.reserveCapacity(findings.count)
        var groupOf = [Int](repeating: 0, count: findings.count)
        var groupSizes: [Int] = []
        groupSizes.reserveCapacity(findings.count)
        for index in findings.indices {
            let next = groupSizes.count
            let group = Self.value(
                &groupNumbers[
                    Key(rule: findings[index].rule, file: findings[index].file, snippet: normalized[index]),
                    default: next])
            if group == next { groupSizes.append(0) }
            groupSizes[group] += 1
            groupOf[index] = group
        }
        var occurrence = [Int](repeating: 0, count: findings.count)
        var shared: [Int: [Int]] = [:]
        for index in findings.indices where groupSizes[groupOf[index]] > 1 {
            shared[groupOf[index], default: []].append(index)
        }
        for indices in shared.values {
            let ordered = indices.sorted { (findings[$0].line, $0) < (findings[$1].line, $1) }
            for (rank, index) in ordered.enumerated() { occurrence[index] = rank }
        }
        // The digests are independent of each other: large scans spread them over the cores.
        let ranks = occurrence
        let digests = [String](unsafeUninitializedCapacity: findings.count) { buffer, initialized in
            let chunk = 4096
            let chunks = (findings.count + chunk - 1) / chunk
            let output = Output(base: buffer.baseAddress)
            DispatchQueue.concurrentPerform(iterations: chunks) { part in
                for index in (part * chunk)..<min((part + 1) * chunk, findings.count) {
                    let finding = findings[index]
                    output.base.map { $0 + index }?.initialize(
                        to: digest(
                            tool: tool,
                            rule: finding.rule,
                            file: finding.file,
                            normalizedSnippet: normalized[index],
                            occurrence: ranks[index]
                        )
                    )
                }
            }
            initialized = findings.count
        }
        return findings.indices.map { index in
            IdentifiedFinding(
                finding: findings[index],
                normalizedSnippet: normalized[index],
                occurrence: occurrence[index],
                identity: digests[index]
            )
        }
    }
}
