import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// `barkeepd --verify-summaries` (and `--repair-summaries`) on the database of a running daemon.
@Suite("barkeepd --verify-summaries end to end")
struct VerifySummariesTests {
    private let barkeepd = BuildProducts.path("barkeepd")

    @Test("agrees on a live database, names each difference, exits 1 on one, and repairs with --repair-summaries")
    func verifyAndRepair() throws {
        let configuration = try TestDatabase.makeDatabase()
        let url = configuration.conninfo + " dbname=\(configuration.database ?? "")"
        let daemon = try TestDaemon(url: url)
        for arguments in [
            ["project", "create", "app"], ["screen", "add", "app", "Inbox", "--path", "Sources/**"],
            ["item", "add", "app", "--screen", "Inbox", "--step", "3", "--title", "Fix the bar"],
            ["step", "set", "app", "Inbox", "1", "done"],
        ] {
            let (status, _, error) = try daemon.barkeep(arguments)
            #expect(status == 0, "barkeep \(arguments.joined(separator: " ")): \(error)")
        }
        let directory = try TemporaryDirectory.make(prefix: "barkeep-verify")
        let verify = ["--verify-summaries", "--data-dir", directory, "--database-url", url]

        let agreeing = try Subprocess.run(barkeepd, verify)
        #expect(agreeing.status == 0, "\(agreeing.error)")
        #expect(agreeing.output == "summaries of 1 project(s) agree with a recomputation\n")

        // What a restore of some tables only, or a write with the triggers off, would leave.
        let connection = try PostgresConnection(configuration: configuration)
        defer { connection.close() }
        try connection.query("UPDATE finding_summaries SET findings = 5")
        let differing = try Subprocess.run(barkeepd, verify)
        #expect(differing.status == 1)
        #expect(
            differing.output == """
                project app screen Inbox: findings proposed medium rule-step=0 item-step=3 symbols=: stored 5, \
                recomputed 1
                summaries of 1 of 1 project(s) differ from a recomputation

                """)

        let repairing = try Subprocess.run(barkeepd, verify + ["--repair-summaries"])
        #expect(repairing.status == 1)
        #expect(repairing.output.contains("project app: repaired\n"))
        #expect(try Subprocess.run(barkeepd, verify).status == 0)
        #expect(try daemon.barkeep(["status", "app"]).0 == 0)

        let misuse = try Subprocess.run(barkeepd, ["--repair-summaries"])
        #expect(misuse.status == 64 && misuse.error.contains("--repair-summaries needs --verify-summaries"))
    }

    @Test("beside a running daemon on its embedded cluster: looks at that cluster, with the data directory held")
    func besideEmbeddedDaemon() throws {
        let daemon = try EmbeddedDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/**"]).0 == 0)
        let postmaster = try daemon.postmasterPID()
        let verify = try Subprocess.run(barkeepd, ["--verify-summaries", "--data-dir", daemon.root])
        #expect(verify.status == 0, "\(verify.error)")
        #expect(verify.output == "summaries of 1 project(s) agree with a recomputation\n")
        // The running daemon's cluster was neither restarted nor stopped.
        #expect(try daemon.postmasterPID() == postmaster)
        #expect(try daemon.barkeep(["status", "app"]).0 == 0)
    }
}
