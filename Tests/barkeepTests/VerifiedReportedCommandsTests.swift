import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A finding verified by hand that the next scans still report, through the binaries: `findings`, `finding show`,
/// `status` (text and JSON), `watch` and the readiness report all say so, and the status stays verified.
@Suite("verified but still reported, end to end")
struct VerifiedReportedCommandsTests {
    /// Writes a duo_scan document of `findings` (file, line, snippet), returning its path.
    private func scan(_ findings: [(String, Int, String)], in directory: String, name: String) throws -> String {
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": findings.map { finding in
                ["rule": "DUO003", "severity": "medium", "file": finding.0, "line": finding.1, "snippet": finding.2]
            },
        ]
        let path = directory + "/" + name
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("findings, finding show, status, watch and the report all say a verified finding is still reported")
    func everyView() throws {
        let daemon = try TestDaemon()
        let directory = try TemporaryDirectory.make(prefix: "barkeep-verified")
        let first = try scan(
            [("Sources/Compose/ComposeView.swift", 10, "if idiom == .pad {"), ("Sources/Feed.swift", 3, "x")],
            in: directory, name: "1.json")
        let second = try scan(
            [("Sources/Compose/ComposeView.swift", 14, "if idiom == .pad {"), ("Sources/Feed.swift", 3, "x")],
            in: directory, name: "2.json")
        let third = try scan(
            [("Sources/Compose/ComposeView.swift", 14, "if idiom == .pad {"), ("Sources/Other.swift", 1, "y")],
            in: directory, name: "3.json")
        for command in [
            ["project", "create", "app"], ["ingest", "app", first],
            ["screen", "add", "app", "Compose", "--path", "Sources/Compose/**"],
            ["finding", "set", "app", "1", "applied"], ["finding", "set", "app", "1", "verified"],
        ] {
            let (status, _, error) = try daemon.barkeep(command)
            #expect(status == 0, "\(command): \(error)")
        }
        let watcher = try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["watch", "app", "--since", "0", "--kind", "finding.persisted"],
            environment: daemon.environment())
        defer { watcher.signal(SIGTERM) }
        #expect(try daemon.barkeep(["ingest", "app", second]).0 == 0)
        #expect(try daemon.barkeep(["ingest", "app", third]).0 == 0)

        let findings = try daemon.barkeep(["findings", "app", "--status", "verified"]).1
        #expect(findings.contains("verified, still reported in run 3"), "\(findings)")
        let shown = try daemon.barkeep(["finding", "show", "app", "1"]).1
        #expect(shown.contains("Status:   verified, still reported in run 3"), "\(shown)")
        // One event, from the first run that reported it after the verification.
        #expect(shown.components(separatedBy: "verified, still reported  ").count == 2, "\(shown)")
        #expect(shown.contains("verified, still reported  local:") && shown.contains("run 2"))
        let json = try daemon.barkeep(["--json", "finding", "show", "app", "1"]).1
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "verified" && object["still_reported_run"] as? Int == 3)

        let status = try daemon.barkeep(["status", "app"]).1
        #expect(status.contains("1 verified finding still reported by a later scan"), "\(status)")
        let totals = try daemon.barkeep(["--json", "status", "app"]).1
        let dashboard = try #require(try JSONSerialization.jsonObject(with: Data(totals.utf8)) as? [String: Any])
        #expect((dashboard["totals"] as? [String: Any])?["verified_still_reported"] as? Int == 1)

        #expect(eventually { watcher.output.contains("finding.persisted") }, "\(watcher.output)")
        #expect(watcher.output.contains("#1 Compose  DUO003:Sources/Compose/ComposeView.swift:14  (run 2)"))

        let report = try daemon.barkeep(["report", "app"]).1
        #expect(report.contains("## Verified but still reported\n"), "\(report)")
        #expect(report.contains("| F-1 | Compose |") && report.contains("| verified, still reported in run 3 |"))
        #expect(
            report.contains(
                "- Compose: poses P1, P2, P3, P4, P11, P12 not verified; all 12 checklist steps to do;"
                    + " F-1 verified, still reported in run 3.\n"))
        #expect(
            report.contains(
                "## Verified\n\nNo other finding is verified: the 1 verified finding above is still reported.\n"))

        // Reworked, it is an open finding again, and nothing is marked.
        #expect(try daemon.barkeep(["finding", "set", "app", "1", "applied"]).0 == 0)
        #expect(!(try daemon.barkeep(["findings", "app"]).1.contains("still reported")))
        #expect(!(try daemon.barkeep(["status", "app"]).1.contains("still reported")))
    }
}
