import BarkeepTestSupport
import Foundation
import Testing

/// The web dashboard in a real browser (Debian's chromium through chromium-driver, driven by selenium), against a
/// real daemon seeded with a real scan: `Tests/Browser/browser_checks.py` runs every scenario in one browser and
/// prints one JSON line per check; each must be there and pass. Never skipped: without chromium or PyPI it fails.
/// `BARKEEP_UPDATE_SCREENSHOTS=1` also writes the pages' images into docs/web/ for docs/web.md.
@Suite("web dashboard in a real browser", .serialized)
struct BrowserTests {
    /// What a scan finding's snippet is in the seeded scan: markup that would run if it were not escaped.
    static let hostileSnippet = "<img src=x onerror=alert(1)>"

    /// The checks the script must report, each passing.
    static let checks = [
        "sign-in: a token in the URL 400, a bad one 401 with the form, a good one 303 to next with the cookie",
        "pages carry the security headers; X-Barkeep-Part: main is only <main>; static assets cached for ever",
        "sign-out ends the session and clears the cookie",
        "no cookie: the sign-in page",
        "the API without a token: 401",
        "sign in with a reader's token",
        "the session cookie is HttpOnly and SameSite=Strict",
        "a link followed from another site opens the page signed in (the Strict cookie sent on the reload)",
        "the icon: named by every page, /favicon.ico redirects to it",
        "the overview lists exactly the screens of barkeep status --json",
        "a snippet of markup shows as text and runs nothing",
        "a finding's title sits on its own line under its location in the findings table",
        "a reader's write is refused (403) and nothing changed",
        "a screenshot uploaded from the CLI shows on the screen page",
        "the readiness report page renders with its own stylesheet allowed by hash and nothing refused",
        "the readiness report embeds the failed pose's screenshot as a data: image",
        "axe-core: no serious or critical violation on any page, light and dark and 390 px wide",
        "revoking the token ends its session at once (next navigation: the sign-in page)",
        "a writer's bulk verdict from the findings page, with its preview",
        "without script the preview is a page of its own",
        "a writer sets a checklist step from the screen page's form",
        "a later page of findings: a First page link keeping the filter, the bulk form naming only the rows shown",
        "a finding set from the CLI shows on an open screen page within a second, without a reload",
    ]

    @Test("every image docs/web.md shows is in docs/web (the browser suite writes them)")
    func documentedImages() throws {
        let text = try String(contentsOfFile: SourceTree.root.path + "/docs/web.md", encoding: .utf8)
        let images = text.components(separatedBy: "](web/").dropFirst().compactMap { $0.split(separator: ")").first }
        #expect(images.count >= 7)
        for image in images {
            #expect(FileManager.default.fileExists(atPath: SourceTree.root.path + "/docs/web/" + image), "\(image)")
        }
    }

    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    private func token(_ daemon: TestDaemon, _ name: String, role: String) throws -> String {
        let created = try daemon.barkeep(["token", "create", name, "--role", role])
        #expect(created.0 == 0, "\(created)")
        return try #require(created.1.split(separator: "\n").first.map(String.init))
    }

    @Test("sign-in, overview = status, escaping, a reader refused, revocation, screenshot, bulk verdict, axe-core")
    func dashboard() throws {
        let daemon = try TestDaemon(http: true)
        let base = try #require(daemon.httpURL)
        let project = "app"
        #expect(try daemon.barkeep(["project", "create", project]).0 == 0)

        // A real scan, one finding's snippet made hostile.
        var scan = try Fixtures.json("duo_scan/gilrodar_ToolBar.json")
        var findings = try #require(scan["findings"] as? [[String: Any]])
        let hostileIndex = try #require(findings.firstIndex { $0["rule"] as? String == "DUO007" })
        findings[hostileIndex]["snippet"] = Self.hostileSnippet
        scan["findings"] = findings
        let directory = try TemporaryDirectory.make(prefix: "barkeep-browser")
        let scanFile = directory + "/scan.json"
        try JSONSerialization.data(withJSONObject: scan).write(to: URL(fileURLWithPath: scanFile))
        let ingested = try daemon.barkeep(["ingest", project, scanFile])
        #expect(ingested.0 == 0, "\(ingested)")
        #expect(
            try daemon.barkeep(["screen", "add", project, "Toolbar", "--path", "ToolBar/ViewController.swift"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", project, "Launch", "--path", "ToolBar/AppDelegate.swift"]).0 == 0)
        let listed = try #require(try json(try daemon.barkeep(["--json", "findings", project]).1) as? [[String: Any]])
        let hostile = try #require(listed.first { $0["snippet"] as? String == Self.hostileSnippet }?["id"] as? Int)

        let shot = try SampleImages.temporaryFile(SampleImages.png, named: "toolbar p1.png")
        let posed = try daemon.barkeep([
            "pose", "record", project, "Toolbar", "P1", "failed", "--screenshot", shot, "--item", "Bar overlaps",
        ])
        #expect(posed.0 == 0, "\(posed)")

        let status = try #require(try json(try daemon.barkeep(["--json", "status", project]).1) as? [String: Any])
        let screens = try #require(status["screens"] as? [[String: Any]]).compactMap {
            ($0["key"] ?? $0["screen"]) as? String
        }
        #expect(Set(screens).isSuperset(of: ["Toolbar", "Launch"]), "\(screens)")

        var settings: [String: Any] = [
            "base": base, "project": project, "screens": screens, "hostile": hostile,
            "hostile_snippet": Self.hostileSnippet, "shot_screen": "Toolbar", "bulk_rule": "DUO005",
            "barkeep": BuildProducts.path("barkeep"),
            "tokens": [
                "reader": try token(daemon, "rita", role: "reader"),
                "writer": try token(daemon, "will", role: "writer"),
                "admin": try token(daemon, "ada", role: "admin"),
                "revokee": try token(daemon, "rex", role: "reader"), "revokee_name": "rex",
            ],
        ]
        if ProcessInfo.processInfo.environment["BARKEEP_UPDATE_SCREENSHOTS"] == "1" {
            settings["screenshots"] = SourceTree.root.path + "/docs/web"
        }
        let arguments = String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)
        var environment = daemon.environment()
        environment["PYTHONPATH"] = SourceTree.root.path + "/Tests/Browser"
        let result = try BrowserTools.run(
            "browser_checks.py", [arguments], environment: environment, timeout: .seconds(240))
        #expect(result.status == 0, "\(result.error)")
        var reported: [String: (ok: Bool, detail: String)] = [:]
        for line in result.output.split(separator: "\n") {
            guard let object = try? json(String(line)) as? [String: Any], let check = object["check"] as? String
            else {
                Issue.record("not a result line: \(line)")
                continue
            }
            let detail = object["detail"].map { "\($0)" } ?? ""
            reported[check] = (object["ok"] as? Bool == true, detail)
        }
        for check in Self.checks {
            let outcome = reported.removeValue(forKey: check)
            #expect(outcome?.ok == true, "\(check): \(outcome?.detail ?? "not reported")\n\(result.error)")
        }
        #expect(reported.isEmpty, "failed scenarios: \(reported)")
    }
}
