import BarkeepHashing
import BarkeepServer
import BarkeepTestSupport
import Foundation
import Testing

/// One request of every command of the protocol (both shapes where a command has two, both reply forms of INGEST, a CHECK)
/// against a daemon seeded by the script itself, spoken at protocol 2 and at protocol 3, every reply byte compared
/// with `Golden/protocol-transcript.txt`. The safety net under the command spec (issue 26): a conversion of a
/// command to its spec is done when this transcript is unchanged. Times, the daemon's version, token secrets,
/// temporary paths, the figures of STATS and the leases and cursors the daemon's
/// workers move are masked; everything else is the wire as it is.
@Suite("the protocol transcript of every command equals its golden file")
struct ProtocolTranscriptTests {
    /// Where the golden file lives; `BARKEEP_UPDATE_GOLDEN=1` rewrites it from the current replies.
    private static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/protocol-transcript.txt")

    /// One request line, with the payload that follows it (INGEST).
    struct Step {
        var line: String
        var payload: [UInt8]?
    }

    /// An sdk-check document: one symbol found at iOS 27.0, one missing.
    private static let sdkCheck = Array(
        """
        {"tool": "sdk_check", "version": "0.3", "sdk": "27.0", "symbols": [
          {"symbol": "axisBehavior", "found": true, "declaration": {"availability": "@available(iOS 27.0, *)"}},
          {"symbol": "barMinimizationBehavior", "found": false, "declaration": null}
        ]}
        """.utf8)

    /// A pull request's scan for CHECK: one finding of all-rules.json still there, one new.
    private static let pullRequest = Array(
        """
        {"tool": "duo_scan", "version": "1.2.2", "findings": [
          {"rule": "DUO005", "severity": "critical", "file": "App/AppDelegate.swift", "line": 2,
           "snippet": "class AppDelegate: UIResponder, UIApplicationDelegate {"},
          {"rule": "DUO007", "severity": "medium", "file": "Sources/MenuView.swift", "line": 9,
           "snippet": "let bar = UIToolbar()", "message": "A standalone bar."}
        ]}
        """.utf8)

    /// The script: seeds project `app` and sends one request of every command. `inbox` is a directory for
    /// SOURCE ADD.
    private static func script(version: Int, inbox: String) throws -> [Step] {
        let scan = try Fixtures.bytes("duo_scan/all-rules.json")
        let lines = [
            "HELLO protocol=\(version)", "PING", "STATS",
            "PROJECT CREATE app sdk=26.0 deployment-target=18.0", "PROJECT CREATE spare", "PROJECT LIST",
            "PROJECT SHOW app", "PROJECT SET app poses=P1,P2,P3", "PROJECT DELETE spare",
            "TOKEN CREATE ci role=writer", "TOKEN LIST", "TOKEN REVOKE ci",
        ]
        var steps = lines.map { Step(line: $0) }
        steps.append(
            Step(
                line: "INGEST app \(scan.count) format=duo-scan commit=0123abc commit-time=2026-01-02T03:04:05Z",
                payload: scan))
        // The same scan after a list of renames: the digest is of the scan alone, so it is that run again.
        let renames = Array("R100\tOld/App.swift\tApp.swift\n".utf8)
        steps.append(
            Step(
                line: "INGEST app \(renames.count + scan.count) format=duo-scan commit=0123abc "
                    + "commit-time=2026-01-02T03:04:05Z renames=\(renames.count)",
                payload: renames + scan))
        steps.append(Step(line: "INGEST app \(sdkCheck.count) format=sdk-check", payload: sdkCheck))
        steps.append(Step(line: "CHECK app \(pullRequest.count) format=duo-scan record=no", payload: pullRequest))
        steps += [
            "RUNS app", "RUN SHOW app 1", "FINDINGS app", "FINDINGS app severity=high status=all",
            "FINDING SHOW app 1", "FINDING SET app 1 approved reason=\"seen it\"",
            "FINDING SET app approved where=yes severity=low dry-run=yes", "FINDING ASSIGN app 1,2 ana",
            "FINDING ASSIGN app bo where=yes rule=DUO001 dry-run=yes",
            "FINDING COMMENT app 1 \"looks right\"", "MINE app as=ana",
            "SCREEN ADD app Menu path=Sources/MenuView.swift title=\"The menu\" owner=ana",
            "SCREEN ADD app Bar path=Sources/Bar.m kind=component", "SCREEN LIST app", "SCREEN SHOW app Menu",
            "SCREEN SET app Menu title=Menus add-path=Sources/Screens.swift",
            "SCREEN SET app screens=* owner=bo dry-run=yes",
            "SCREEN USES app Menu Bar", "SCREEN DISMISS app Unlock", "SCREEN DISMISSALS app",
            "SCREEN EXCLUDE app App/Info.plist why=generated", "SCREEN EXCLUSIONS app",
            "STEP SET app Menu 12 not_applicable note=checked", "STEP SET app 2 not_applicable screens=* dry-run=yes",
            "STEPS app", "CHECKLIST",
            "ITEM ADD app screen=Menu step=axis title=\"Keep the chip horizontal\" needs=axisBehavior severity=high",
            "ITEM ADD app screen=Menu step=axis title=Spare", "ITEM SET app 23 title=\"Keep the chips horizontal\"",
            "ITEM REMOVE app 23",
            "SDK SET app 27.0", "BLOCKED app",
        ].map { Step(line: $0) }
        // A screenshot uploaded, then named by a pose (in a dry run: the later numbers stay as they were).
        steps.append(Step(line: "SCREENSHOT PUT app \(SampleImages.png.count)", payload: SampleImages.png))
        let shot = "sha256:" + SHA256Digest.hex(of: SampleImages.png)
        steps += [
            "SCREENSHOT GET \(shot)",
            "POSE RECORD app Menu P4 failed screenshot=\(shot) item=Clipped dry-run=yes",
            "POSE RECORD app Menu P1 passed device=\"iPhone Duo\"",
            "POSE RECORD app P2,P3 failed screens=* screenshot=shots/p.png item=\"Bar hides the title\" dry-run=yes",
            "POSE HISTORY app Menu",
            "POSES app", "STATUS app", "STATUS app not-done=yes limit=1", "BURNDOWN app", "EVENTS app limit=2",
            "EVENTS app after=2 limit=1",
            "SCREEN REMOVE app screens=Ba* dry-run=yes", "SCREEN REMOVE app Bar",
            "HOOK ADD app http://127.0.0.1:9/hook kinds=finding.changed", "HOOK LIST", "HOOK PAUSE 1", "HOOK RESUME 1",
            "HOOK TEST 1", "HOOK REMOVE 1", "SOURCE ADD app inbox=\(inbox)", "SOURCE LIST app", "SOURCE PAUSE 1",
            "SOURCE SHOW 1", "SOURCE RUN 1", "SOURCE RESUME 1", "SOURCE REMOVE 1",
            "NO SUCH", "PROJECT SHOW nowhere", "FINDING SHOW app 0",
        ].map { Step(line: $0) }
        return steps
    }

    /// The replies to the script at `version`, each preceded by its request (`> line`), then a WATCH's first line.
    private func transcript(version: Int) throws -> String {
        let daemon = try TestDaemon()
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        let client = try LineClient(socketPath: daemon.socket)
        var text = "# protocol \(version)\n"
        func exchange(_ client: LineClient, _ step: Step) throws {
            text += "> " + step.line.replacingOccurrences(of: inbox, with: "<inbox>") + "\n"
            try client.send(Array((step.line + "\n").utf8) + (step.payload ?? []))
            while let line = try client.readLine() {
                text += line + "\n"
                if line.hasPrefix("OK") || line.hasPrefix("ERR") { return }
            }
            text += "(closed)\n"
        }
        for step in try Self.script(version: version, inbox: inbox) { try exchange(client, step) }
        let watcher = try LineClient(socketPath: daemon.socket)
        try exchange(watcher, Step(line: "HELLO protocol=\(version)"))
        try exchange(watcher, Step(line: "WATCH app kinds=finding.changed"))
        try exchange(client, Step(line: "QUIT"))
        return mask(text, inbox: inbox)
    }

    /// `text` with what changes from run to run replaced: times, the daemon's version, secrets, the inbox's path,
    /// the server-wide figures of STATS.
    private func mask(_ text: String, inbox: String) -> String {
        var text = text.replacingOccurrences(of: inbox, with: "<inbox>")
        let patterns = [
            (#"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?"#, "<time>"),
            (#" version=[^ \n]+"#, " version=<version>"), (#" server=[^ \n]+"#, " server=<server>"),
            (#"(?m) token=[^ \n]+$"#, " token=<secret>"), (#"local:[^ \n"]+"#, "local:<user>"),
            // A hook's or source's lease, taken by the daemon's own workers when they get to it.
            (#" holder=[^ \n]+ lease-until=<time>"#, ""), (#" delivered=\d+"#, " delivered=<seq>"),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("* type=stats") || line.hasPrefix("* uptime") || line.contains(" connections=")
            else { return String(line) }
            return line.replacingOccurrences(of: #"=[^ ]+"#, with: "=<n>", options: .regularExpression)
        }.joined(separator: "\n")
    }

    @Test("the script sends every command of the table")
    func coversTheTable() throws {
        let lines = try Self.script(version: 3, inbox: "/inbox").map(\.line) + ["WATCH app", "QUIT"]
        for command in CommandTable.standard.commands {
            #expect(lines.contains { ($0 + " ").hasPrefix(command.name + " ") }, "\(command.name) is not sent")
        }
    }

    @Test("every command, at protocol 2 and 3, answers byte for byte as the golden file says")
    func transcript() throws {
        try GoldenFile.check(try transcript(version: 2) + transcript(version: 3), against: Self.golden)
    }
}
