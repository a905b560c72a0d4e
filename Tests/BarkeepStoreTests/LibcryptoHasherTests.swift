import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Testing

@Suite("Identities hashed by libcrypto")
struct LibcryptoHasherTests {
    @Test("libcrypto's hasher and Core's give every finding of every fixture the same identity")
    func sameIdentities() throws {
        #expect(!Fixtures.duoScanFiles.isEmpty)
        for path in Fixtures.duoScanFiles {
            let table = try DuoScanParser.parseTable(try Fixtures.bytes(path))
            let libcrypto = FindingIdentity.identify(table, hasher: LibcryptoHasher())
            let core = FindingIdentity.identify(table, hasher: SwiftIdentityHasher())
            #expect(libcrypto.occurrences == core.occurrences, "\(path)")
            let identities = (0..<table.count).map(libcrypto.identity(at:))
            #expect(identities == (0..<table.count).map(core.identity(at:)), "\(path)")
            // And both are the identities as strings, the form stored since the first release.
            let stored = FindingIdentity.identify(table.report.findings, tool: table.tool).map(\.identity)
            #expect(identities.map(\.hex) == stored, "\(path)")
        }
    }

    @Test(
        "the SHA-256 vectors: libcrypto's digest is Core's", arguments: ["", "abc", String(repeating: "a", count: 119)])
    func vectors(message: String) {
        let bytes = Array(message.utf8)
        let digest = bytes.withUnsafeBytes { LibcryptoHasher().digest($0) }
        #expect(digest.hex == SHA256.hexDigest(of: bytes))
        #expect(IdentityDigest(hex: digest.hex) == digest)
    }
}
