import BarkeepStore
import Testing

@Suite("PostgresBinaries")
struct PostgresBinariesTests {
    @Test("finds the server programs on this machine")
    func locatesInstalledServer() throws {
        let binaries = try PostgresBinaries.locate()
        #expect(binaries.initdb.hasSuffix("/initdb"))
    }

    @Test("an explicit directory without the programs is refused, naming what is missing")
    func explicitDirectoryIsChecked() {
        #expect {
            _ = try PostgresBinaries.locate(explicitDirectory: "/nonexistent")
        } throws: { error in
            guard case StoreError.cluster(let message) = error else { return false }
            return message.contains("--pg-bin /nonexistent") && message.contains("initdb")
        }
    }
}
