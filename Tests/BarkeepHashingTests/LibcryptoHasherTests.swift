import BarkeepCore
import BarkeepHashing
import BarkeepTestSupport
import Testing

@Suite("Identities hashed by libcrypto")
struct LibcryptoHasherTests {
    /// Identities stored since the first release (the protocol transcript's findings, Golden/protocol-transcript.txt):
    /// tool, rule, file, normalized snippet and occurrence, and the hex the database holds for them.
    static let stored: [(parts: [String], occurrence: Int, identity: String)] = [
        (
            ["duo_scan", "DUO005", "App/AppDelegate.swift", "classAppDelegate:UIResponder,UIApplicationDelegate{"], 0,
            "9d988c3e98fd9014490da9ef6d0fecad6ff34770ab777981a873fdb3249ba83d"
        ),
        (
            ["duo_scan", "DUO020", "App/Info.plist", "UIRequiresFullScreen=true"], 0,
            "910ec5646125ef0c9f2ea5ed5d203ec8c0e1b9650552d2ba1f80e616669d921a"
        ),
    ]

    @Test("an identity is the one stored since the first release", arguments: stored)
    func storedIdentity(parts: [String], occurrence: Int, identity: String) {
        let digest = FindingIdentity.digest(
            tool: parts[0], rule: parts[1], file: parts[2], normalizedSnippet: parts[3], occurrence: occurrence,
            hasher: LibcryptoHasher())
        #expect(digest == identity)
    }

    @Test("an identity is the SHA-256 of its parts joined by U+001F, and each fixture's findings get distinct ones")
    func identitiesOfFixtures() throws {
        #expect(!Fixtures.duoScanFiles.isEmpty)
        for path in Fixtures.duoScanFiles {
            let table = try DuoScanParser.parseTable(try Fixtures.bytes(path))
            let scan = FindingIdentity.identify(table, hasher: LibcryptoHasher())
            let identities = (0..<table.count).map(scan.identity(at:))
            #expect(Set(identities).count == table.count, "\(path)")
            // The table's identities are the strings' (the form stored), each the digest of its joined parts.
            let named = FindingIdentity.identify(table.report.findings, tool: table.tool, hasher: LibcryptoHasher())
            #expect(identities.map(\.hex) == named.map(\.identity), "\(path)")
            for finding in named {
                let text = [
                    table.tool, finding.finding.rule, finding.finding.file, finding.normalizedSnippet,
                    String(finding.occurrence),
                ].joined(separator: "\u{1F}")
                #expect(finding.identity == SHA256Digest.hex(of: Array(text.utf8)), "\(path): \(finding)")
            }
        }
    }

    @Test("a digest's hex reads back as the same digest", arguments: ["", "abc", String(repeating: "a", count: 119)])
    func hexRoundTrip(message: String) {
        let digest = Array(message.utf8).withUnsafeBytes { LibcryptoHasher().digest($0) }
        #expect(digest.hex == SHA256Digest.hex(of: Array(message.utf8)))
        #expect(IdentityDigest(hex: digest.hex) == digest)
    }

    @Test("identities hashed with the occurrences are the ones hashed when asked for, occurrences alike")
    func keptDigests() throws {
        // Twelve findings of one key (occurrences past 9), in no line order; keys told apart only by escaping or by
        // white space a snippet loses; a non-ASCII snippet; and each fixture.
        var findings = (0..<12).map { index in
            ScanFinding(
                rule: "R1", severity: "high", file: "a.swift", line: (index * 7) % 12 + 1, snippet: "let x = 0")
        }
        findings += [
            ScanFinding(rule: "a\u{1F}b", severity: "low", file: "c", line: 3, snippet: "s"),
            ScanFinding(rule: "a", severity: "low", file: "b\u{1F}c", line: 3, snippet: "s"),
            ScanFinding(rule: "a", severity: "low", file: "b\u{1F}c", line: 2, snippet: " s\u{1B}"),
            ScanFinding(rule: "R1", severity: "high", file: "a.swift", line: 5, snippet: "letx=0"),
            ScanFinding(rule: "R2", severity: "high", file: "é.swift", line: 1, snippet: "é\u{2003}=\u{00A0}1"),
            ScanFinding(rule: "R2", severity: "high", file: "é.swift", line: 9, snippet: "é = 1"),
        ]
        var tables = [ScanTable(ScanReport(format: .duoScan, tool: "duo_scan", findings: findings))]
        for path in Fixtures.duoScanFiles { tables.append(try DuoScanParser.parseTable(try Fixtures.bytes(path))) }
        for table in tables {
            let asked = FindingIdentity.identify(table, hasher: LibcryptoHasher())
            let kept = FindingIdentity.identify(table, hasher: LibcryptoHasher(), keepingDigests: true)
            #expect(asked.digests == nil)
            #expect(kept.occurrences == asked.occurrences)
            #expect(kept.digests == (0..<table.count).map(asked.identity(at:)))
        }
        // The thirteen of one key (white space aside) rank 0 to 12 by line, then the scan's order.
        let first = FindingIdentity.identify(tables[0], hasher: LibcryptoHasher(), keepingDigests: true)
        let ranked = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15].sorted {
            (findings[$0].line, $0) < (findings[$1].line, $1)
        }
        #expect(ranked.map { first.occurrences[$0] } == (0..<13).map(UInt32.init))
    }
}
