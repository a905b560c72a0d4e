import BarkeepCore
import BarkeepHashing
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The dashboard, the burndown and the readiness report through the binaries, on a project built from the shared
/// fixtures: NetNewsWire's fourteen scans, screens over its sources, items, steps and poses.
@Suite("barkeep status, burndown and report end to end")
struct DashboardTests {
    /// Where the golden files live; `BARKEEP_UPDATE_GOLDEN=1` rewrites them from the current output.
    private static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// The time the dashboard and the report are drawn at.
    private static let now = "2026-11-29T18:00:00Z"

    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// A daemon holding project `app`: the NetNewsWire history ingested run by run, three screens, items (one
    /// blocked on the SDK), steps and pose results. Everything is fixed but the times.
    private func makeProject() throws -> TestDaemon {
        let daemon = try TestDaemon()
        func run(_ arguments: [String]) throws {
            let (status, _, error) = try daemon.barkeep(arguments)
            #expect(status == 0, "barkeep \(arguments.joined(separator: " ")): \(error)")
        }
        try run(["project", "create", "app", "--sdk", "27.0", "--deployment-target", "26.0"])
        let history = try Fixtures.files(in: "duo_scan/history/NetNewsWire", extension: "json")
            .filter { !$0.hasSuffix("expected.json") }
        #expect(history.count == 14)
        let directory = try #require(Fixtures.directory)
        for file in history { try run(["ingest", "app", directory + "/" + file]) }
        try run(["screen", "add", "app", "Timeline", "--path", "iOS/MainTimeline/**", "--owner", "ana"])
        try run(["screen", "add", "app", "Feeds", "--path", "iOS/MainFeed/**", "--owner", "bo"])
        try run(["screen", "add", "app", "Settings", "--path", "iOS/Settings/**"])
        try run([
            "item", "add", "app", "--screen", "Timeline", "--step", "axis", "--title",
            "Keep the filter chip horizontal",
            "--needs", "axisBehavior",
        ])
        try run([
            "item", "add", "app", "--screen", "Settings", "--step", "priority", "--title", "Rank the toolbar actions",
            "--needs", "visibilityPriority",
        ])
        for step in 1...12 {
            try run(["step", "set", "app", "Settings", String(step), step < 7 ? "done" : "not_applicable"])
        }
        try run(["pose", "record", "app", "Settings", "P1", "passed"])
        try run([
            "pose", "record", "app", "Settings", "P3", "failed", "--screenshot",
            try SampleImages.temporaryFile(SampleImages.png, named: "p3.png"), "--item",
            "Bar hides the title",
        ])
        try run(["pose", "record", "app", "Settings", "P11", "not_run", "--reason", "no right-to-left strings yet"])
        try run(["pose", "record", "app", "Timeline", "P1", "passed", "--device", "iPhone Duo"])
        return daemon
    }

    /// `text` with its wall-clock times (scan times and their ages) replaced: they change from run to run.
    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?Z?)?( UTC)?( \([^)]*ago\)| \(just now\))?"#,
            with: "<time>",
            options: .regularExpression
        )
    }

    private func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let url = Self.goldenDirectory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["BARKEEP_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(text == golden, "differs from Golden/\(name)", sourceLocation: sourceLocation)
    }

    @Test("the status table and the markdown report equal their golden files")
    func golden() throws {
        let daemon = try makeProject()
        var environment = daemon.environment()
        environment["BARKEEP_NOW"] = Self.now
        let status = try Subprocess.run(BuildProducts.path("barkeep"), ["status", "app"], environment: environment)
        #expect(status.status == 0, "\(status.error)")
        try expectGolden(normalized(status.output), "status.txt")
        let report = try Subprocess.run(BuildProducts.path("barkeep"), ["report", "app"], environment: environment)
        #expect(report.status == 0, "\(report.error)")
        #expect(report.output.contains("- Generated: 2026-11-29 18:00 UTC"))
        try expectGolden(normalized(report.output), "report.md")
    }

    @Test("status --json totals equal the counts of findings --json")
    func totalsMatchFindings() throws {
        let daemon = try makeProject()
        let status = try #require(try json(try daemon.barkeep(["--json", "status", "app"]).1) as? [String: Any])
        let findings = try #require(
            try json(try daemon.barkeep(["--json", "findings", "app", "--status", "all"]).1) as? [[String: Any]])
        let totals = try #require(status["totals"] as? [String: Any])
        var byStatus: [String: Int] = [:]
        for finding in findings { byStatus[finding["status"] as? String ?? "", default: 0] += 1 }
        for name in [
            "proposed", "approved", "applied", "verified", "blocked", "declined", "kept", "false_positive", "fixed",
        ] {
            #expect(totals[name] as? Int == byStatus[name, default: 0], "\(name)")
        }
        let open = findings.filter { ["proposed", "approved", "applied", "blocked"].contains($0["status"] as? String) }
        #expect(totals["needs_work"] as? Int == open.count)
        for severity in Severity.allCases.map(\.rawValue) {
            let count = open.filter { $0["severity"] as? String == severity }.count
            #expect(totals["needs_work_" + severity] as? Int == count, "\(severity)")
        }
        #expect(totals["unmapped"] as? Int == open.filter { $0["screen"] as? String == "unmapped" }.count)
        let screens = try #require(status["screens"] as? [[String: Any]])
        #expect(screens.map { $0["key"] as? String } == ["Feeds", "Settings", "Timeline", "app"])
        for screen in screens {
            let key = screen["key"] as? String
            for severity in ["critical", "high", "medium", "low", "info"] {
                #expect(
                    screen[severity] as? Int
                        == open.filter { $0["screen"] as? String == key && $0["severity"] as? String == severity }.count,
                    "\(key ?? "?") \(severity)")
            }
            #expect(
                screen["blocked"] as? Int
                    == open.filter { $0["screen"] as? String == key && $0["status"] as? String == "blocked" }.count)
        }
        #expect((status["blocked"] as? [[String: Any]])?.first?["sdk"] as? String == "27.1")
    }

    @Test("the HTML report parses, holds both SVGs, and the burndown's points are the event history's")
    func htmlReport() throws {
        let daemon = try makeProject()
        let file = try TemporaryDirectory.make(prefix: "barkeep-report") + "/report.html"
        let written = try daemon.barkeep(["report", "app", "--format", "html", "--output", file])
        #expect(written.0 == 0, "\(written.2)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
        let document = try XMLDocumentScan(html)
        let svgs = document.elements.filter { $0.name == "svg" }
        #expect(svgs.compactMap { $0.attributes["id"] } == ["pose-matrix", "burndown"])
        // Three screens by six required poses.
        let rects = document.elements.filter { $0.name == "rect" && $0.attributes["data-pose"] != nil }
        #expect(rects.count == 18)
        #expect(
            rects.first { $0.attributes["data-screen"] == "Settings" && $0.attributes["data-pose"] == "P3" }?
                .attributes["data-result"] == "failed")

        // One recommendation per screen, each screen once; Settings' failed pose with its screenshot and item.
        let sections = document.elements.filter { $0.name == "h3" }.map(\.text)
        #expect(
            sections.filter { ["Feeds", "Settings", "Timeline"].contains($0) } == ["Feeds", "Settings", "Timeline"])
        let cells = document.elements.filter { $0.name == "td" }.map(\.text)
        #expect(cells.contains("sha256:" + SHA256Digest.hex(of: SampleImages.png)))
        #expect(cells.contains("F-92 (proposed)"))

        // The burndown's points, run by run, are the open counts of the reference tracker (expected.json), then
        // `now`: the items added and the pose failure's item.
        let expected = try Fixtures.json("duo_scan/history/NetNewsWire/expected.json")
        let runs = try #require(expected["runs"] as? [[String: Any]])
        let open = runs.compactMap { $0["open_after"] as? Int }
        let points = document.elements.filter { $0.name == "circle" && $0.attributes["data-needs-work"] != nil }
        let labels = points.compactMap { $0.attributes["data-label"] }
        #expect(labels == (1...14).map { "run \($0)" } + ["now"])
        #expect(points.prefix(14).compactMap { $0.attributes["data-needs-work"].flatMap { Int($0) } } == open)
        let last = try #require(points.last)
        #expect(last.attributes["data-needs-work"] == String((open.last ?? 0) + 3))
        #expect(last.attributes["data-blocked"] == "1")

        // The same points as barkeep burndown --svg writes.
        let svgFile = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("b.svg").path
        #expect(try daemon.barkeep(["burndown", "app", "--svg", svgFile]).0 == 0)
        let chart = try XMLDocumentScan(try String(contentsOfFile: svgFile, encoding: .utf8))
        #expect(
            chart.elements.filter { $0.name == "circle" && $0.attributes["data-needs-work"] != nil }
                .compactMap { $0.attributes["data-needs-work"] }
                == points.compactMap { $0.attributes["data-needs-work"] })
    }

    @Test("report --owner and --screens report a part of the project; a part with no screen fails")
    func reportPart() throws {
        let daemon = try makeProject()
        let (status, ana, error) = try daemon.barkeep(["report", "app", "--owner", "ana"])
        #expect(status == 0, "\(error)")
        #expect(ana.contains("## Summary\n\n- Part: screens owned by ana, 1 of the project's 3 screens; the figures"))
        #expect(ana.split(separator: "\n").filter { $0.hasPrefix("### ") } == ["### Timeline"])
        #expect(ana.contains("- Burndown of the whole project: needs work 0 → 30"))
        #expect(ana.hasSuffix("## Not verified\n\n- Timeline: P2, P3, P4, P11, P12 no result\n"))

        let feeds = try daemon.barkeep(["report", "app", "--screens", "F*", "--format", "html"])
        #expect(feeds.0 == 0, "\(feeds.2)")
        let document = try XMLDocumentScan(feeds.1)
        #expect(document.elements.filter { $0.name == "section" }.count == 1)
        #expect(
            Set(document.elements.filter { $0.name == "rect" }.compactMap { $0.attributes["data-screen"] }) == ["Feeds"]
        )
        #expect(feeds.1.contains("No pose has a result yet on 1 screen."))

        let nobody = try daemon.barkeep(["report", "app", "--owner", "ana", "--screens", "F*"])
        #expect(nobody.0 == 1)
        #expect(nobody.2 == "barkeep: no screen of app is owned by ana and matching F*\n")
        #expect(try daemon.barkeep(["report", "app", "--owner", ""]).0 == 64)
    }

    /// The records of `STATUS app` on a new connection that says `hello` first (nil: no HELLO).
    private func statusRecords(_ daemon: TestDaemon, hello: String?) throws -> [Record] {
        let client = try LineClient(socketPath: daemon.socket)
        if let hello { #expect(try client.request(hello)?.hasPrefix("OK protocol=") == true) }
        try client.send("STATUS app\n")
        var records: [Record] = []
        while let line = try client.readLine(), line.hasPrefix("* ") { records.append(try Record(parsing: line)) }
        return records
    }

    @Test("protocol 2 gets every counter, protocol 3 the compact records; status --json shows every counter")
    func compactRecords() throws {
        let daemon = try makeProject()
        let full = try statusRecords(daemon, hello: "HELLO protocol=2")
        let compact = try statusRecords(daemon, hello: "HELLO protocol=3")
        // Kept replies are kept apart by protocol: each form again, now from the daemon's cache.
        #expect(try statusRecords(daemon, hello: nil) == full)
        #expect(try statusRecords(daemon, hello: "HELLO protocol=3") == compact)
        #expect(try statusRecords(daemon, hello: "HELLO") == full)

        #expect(compact == full.map(CompactRecords.compacted))
        #expect(compact.map(\.encoded).joined().utf8.count < full.map(\.encoded).joined().utf8.count)
        #expect(CompactRecords.expanded(compact, verb: "STATUS") == full)
        // The list of counters is the protocol-2 records' own: every one is in every record of its type.
        for (type, counters) in CompactRecords.counters {
            let ofType = full.filter { $0["type"] == type }
            #expect(!ofType.isEmpty, "no \(type) record")
            for record in ofType { #expect(counters.allSatisfy { record[$0] != nil }, "\(record)") }
        }

        // The CLI speaks 3, and its JSON holds every counter of every screen line, with protocol 2's values.
        let (status, output, error) = try daemon.barkeep(["status", "app", "--json"])
        #expect(status == 0, "\(error)")
        let json = try #require(try json(output) as? [String: Any])
        let screens = try #require(json["screens"] as? [[String: Any]])
        let counters = try #require(CompactRecords.counters["screen"])
        for record in full where record["type"] == "screen" {
            let object = try #require(screens.first { $0["key"] as? String == record["key"] })
            for key in counters {
                let value = try #require(record[key].flatMap(Int.init))
                let parts = key.split(separator: "-").map(String.init)
                if let stage = ["untriaged", "in-progress"].first(where: { key.hasPrefix($0 + "-") }) {
                    let byStage = object[stage.replacingOccurrences(of: "-", with: "_")] as? [String: Any]
                    #expect(byStage?[String(key.dropFirst(stage.count + 1))] as? Int == value, "\(key)")
                } else {
                    #expect(object[parts.joined(separator: "_")] as? Int == value, "\(key)")
                }
            }
        }
    }

    @Test("a report of 150 screens without pose results says so in one line")
    func manyScreens() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "big"]).0 == 0)
        let client = try LineClient(socketPath: daemon.socket)
        let keys = (1...150).map { String(format: "Screen%03d", $0) }
        try client.send(keys.map { "SCREEN ADD big \($0) path=App/\($0)/**\n" }.joined())
        var finals: [String] = []
        while finals.count < keys.count, let line = try client.readLine() {
            if !line.hasPrefix("* ") { finals.append(line) }
        }
        #expect(finals.allSatisfy { $0.hasPrefix("OK") }, "\(finals.first { !$0.hasPrefix("OK") } ?? "")")
        let (status, report, error) = try daemon.barkeep(["report", "big"])
        #expect(status == 0, "\(error)")
        // Nothing to fix anywhere: no section, a line each under To verify.
        #expect(!report.contains("### Screen"))
        #expect(report.contains("150 have nothing to fix but are not verified yet."))
        #expect(
            report.split(separator: "\n").filter {
                $0.hasPrefix("- Screen")
                    && $0.hasSuffix(": poses P1, P2, P3, P4, P11, P12 not verified; all 12 checklist steps to do.")
            }.count == 150)
        #expect(report.hasSuffix("## Not verified\n\nNo pose has a result yet on 150 screens.\n"))
    }

    @Test("status --watch redraws when an ingest through another connection changes the totals")
    func watch() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let watcher = try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["--json", "status", "app", "--watch"], environment: daemon.environment())
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }
        func drawings(atLeast count: Int) -> [[String: Any]] {
            let deadline = ContinuousClock.now + .seconds(20)
            var objects: [[String: Any]] = []
            while ContinuousClock.now < deadline {
                objects = watcher.output.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                if objects.count >= count { break }
                usleep(50_000)
            }
            return objects
        }
        func needsWork(_ drawing: [String: Any]?) -> Int? {
            (drawing?["totals"] as? [String: Any])?["needs_work"] as? Int
        }
        #expect(needsWork(drawings(atLeast: 1).first) == 0)

        let fixture = try #require(Fixtures.directory) + "/duo_scan/all-rules.json"
        #expect(try daemon.barkeep(["ingest", "app", fixture]).0 == 0)
        let redrawn = drawings(atLeast: 2)
        #expect(redrawn.count >= 2)
        #expect(needsWork(redrawn.last) == 21)
        #expect((redrawn.last?["last_scan"] as? [String: Any])?["run"] as? Int == 1)
    }
}
