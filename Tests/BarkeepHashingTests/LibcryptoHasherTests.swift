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
}
