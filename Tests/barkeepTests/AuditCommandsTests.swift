import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The audit workflow through the binaries: screens, steps, items blocked on the SDK, poses.
@Suite("barkeep audit workflow end to end")
struct AuditCommandsTests {
    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try json(text) as? [String: Any], "not a JSON object: \(text)")
    }

    private func array(_ text: String) throws -> [[String: Any]] {
        try #require(try json(text) as? [[String: Any]], "not a JSON array: \(text)")
    }

    @Test(
        "items close: by hand up to verified, and by the pose whose failure created them; their step can then be done")
    func itemsClose() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**"]).0 == 0)
        let added = try object(
            try daemon.barkeep(["--json", "item", "add", "app", "--screen", "Inbox", "--step", "3", "--title", "T"]).1)
        let number = String(try #require(added["id"] as? Int))
        for status in ["approved", "applied", "verified"] {
            let set = try daemon.barkeep(["finding", "set", "app", number, status])
            #expect(set.0 == 0 && set.1 == "Finding \(number) of app is now \(status).\n", "\(set)")
        }
        #expect(try daemon.barkeep(["step", "set", "app", "Inbox", "3", "done"]).0 == 0)
        // Edited, then removed.
        let edited = try daemon.barkeep(["item", "set", "app", number, "--title", "Give each item a title"])
        #expect(edited.1 == "Item F-\(number) of app: Give each item a title, verified.\n")
        #expect(try daemon.barkeep(["item", "remove", "app", number]).0 == 64)
        #expect(try daemon.barkeep(["item", "remove", "app", number, "--yes"]).1 == "Removed item \(number) of app.\n")
        #expect(try daemon.barkeep(["finding", "show", "app", number]).0 == 1)

        // A failed pose's item holds nothing of the checklist but the screen; the pose passing verifies it.
        let failed = try object(
            try daemon.barkeep([
                "--json", "pose", "record", "app", "Inbox", "P3", "failed", "--screenshot",
                try SampleImages.temporaryFile(), "--item",
                "Toolbar overlaps the list",
            ]).1)
        let poseItem = String(try #require(failed["finding"] as? Int))
        #expect(
            try object(try daemon.barkeep(["--json", "finding", "show", "app", poseItem]).1)["status"] as? String
                == "proposed")
        #expect(
            try daemon.barkeep([
                "pose", "record", "app", "Inbox", "P3", "passed", "--device", "iPhone Duo",
            ]).0 == 0)
        let verified = try object(try daemon.barkeep(["--json", "finding", "show", "app", poseItem]).1)
        #expect(verified["status"] as? String == "verified")
        let history = try #require(verified["history"] as? [[String: Any]])
        #expect(history.last?["reason"] as? String == "pose P3 passed")
    }

    @Test("items needing 27.1 symbols are blocked on SDK 27.0, and sdk set 27.1 unblocks them, gated, with events")
    func sdkUnblocksItems() throws {
        let daemon = try TestDaemon()
        #expect(
            try daemon.barkeep(["project", "create", "app", "--sdk", "27.0", "--deployment-target", "26.0"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**"]).0 == 0)
        let watcher = try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["--json", "watch", "app", "--since", "0"],
            environment: daemon.environment())
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }

        var ids: [String: Int] = [:]
        for (title, step, symbol) in [
            ("Items keep their shape", "5", "axisBehavior"), ("Read the bar edge", "6", "toolbarVerticalEdge"),
            ("Compress the toolbar first", "8", "verticalBarCompressionBehavior"),
            ("Rank the actions", "9", "visibilityPriority"),
        ] {
            let (status, output, error) = try daemon.barkeep([
                "--json", "item", "add", "app", "--screen", "Inbox", "--step", step, "--title", title, "--needs",
                symbol,
            ])
            #expect(status == 0, "\(error)")
            let item = try object(output)
            ids[symbol] = item["id"] as? Int
            #expect(item["status"] as? String == (symbol == "visibilityPriority" ? "proposed" : "blocked"))
            if symbol != "visibilityPriority" {
                #expect(item["reason"] as? String == "needs the iOS 27.1 SDK (\(symbol))")
            }
        }
        let blocked = try array(try daemon.barkeep(["--json", "blocked", "app"]).1)
        #expect(
            blocked.map { $0["symbol"] as? String } == [
                "axisBehavior", "toolbarVerticalEdge", "verticalBarCompressionBehavior",
            ])
        #expect(blocked.allSatisfy { $0["sdk"] as? String == "27.1" })
        let grouped = try daemon.barkeep(["blocked", "app"]).1
        #expect(grouped.hasPrefix("iOS 27.1 SDK — axisBehavior\n"))

        let (status, output, error) = try daemon.barkeep(["--json", "sdk", "set", "app", "27.1"])
        #expect(status == 0, "\(error)")
        let result = try object(output)
        #expect(result["sdk"] as? String == "27.1")
        #expect(result["previous"] as? String == "27.0")
        let changes = try #require(result["changes"] as? [[String: Any]])
        #expect(
            Set(changes.compactMap { $0["id"] as? Int })
                == Set(
                    ["axisBehavior", "toolbarVerticalEdge", "verticalBarCompressionBehavior"].compactMap { ids[$0] }))
        for change in changes {
            #expect(change["from"] as? String == "blocked")
            #expect(change["to"] as? String == "proposed")
            #expect(change["gate"] as? String == "27.1")
        }
        #expect(try array(try daemon.barkeep(["--json", "blocked", "app"]).1).isEmpty)

        // The watcher sees one status change per unblocked item, each naming its gate.
        let deadline = ContinuousClock.now + .seconds(20)
        var unblocked: [[String: Any]] = []
        while ContinuousClock.now < deadline {
            unblocked = watcher.output.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { $0["kind"] as? String == "finding.status" }
            if unblocked.count >= 3 { break }
            usleep(50_000)
        }
        #expect(unblocked.count == 3)
        #expect(unblocked.allSatisfy { $0["from"] as? String == "blocked" && $0["to"] as? String == "proposed" })
        #expect(unblocked.allSatisfy { ($0["reason"] as? String ?? "").contains("if #available(iOS 27.1, *)") })

        // Items now carry their gate; the 27.0 one needs one too, the deployment target being 26.0.
        let findings = try array(try daemon.barkeep(["--json", "findings", "app"]).1)
        #expect(findings.count == 4)
        #expect(findings.allSatisfy { $0["status"] as? String == "proposed" })
    }

    @Test("sdk set in text says what became workable and which need a gate")
    func sdkSetText() throws {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        _ = try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/**"])
        _ = try daemon.barkeep([
            "item", "add", "app", "--screen", "Inbox", "--step", "5", "--title", "Shape", "--needs", "axisBehavior",
        ])
        let (status, output, _) = try daemon.barkeep(["sdk", "set", "app", "27.1"])
        #expect(status == 0)
        #expect(
            output.hasPrefix(
                "app now builds with the iOS 27.1 SDK (was 27.0).\n"
                    + "Unblocked 1 item, now workable; 1 of them needs an availability gate:\n"))
        #expect(output.contains("if #available(iOS 27.1, *)"))
    }

    @Test("an unknown symbol is refused with the nearest names, and accepted with --sdk")
    func unknownSymbol() throws {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        _ = try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/**"])
        let refused = try daemon.barkeep([
            "item", "add", "app", "--screen", "Inbox", "--step", "5", "--title", "Shape", "--needs", "axisBehaviour",
        ])
        #expect(refused.0 == 1)
        #expect(refused.2.contains("unknown SDK symbol 'axisBehaviour' (did you mean 'axisBehavior'?); for a symbol"))
        #expect(try array(try daemon.barkeep(["--json", "findings", "app"]).1).isEmpty)
        let accepted = try daemon.barkeep([
            "--json", "item", "add", "app", "--screen", "Inbox", "--step", "5", "--title", "Shape", "--needs",
            "axisBehaviour2", "--sdk", "27.2",
        ])
        #expect(accepted.0 == 0)
        #expect(try object(accepted.1)["reason"] as? String == "needs the iOS 27.2 SDK (axisBehaviour2)")
    }

    @Test("pose refusals give a clear error and store nothing")
    func poseRefusals() throws {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        _ = try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/**"])
        let shot = try SampleImages.temporaryFile()
        let refusals: [([String], String)] = [
            (
                ["P1", "failed", "--item", "Bar overlaps"],
                "a failed pose needs the path of the screenshot that shows it"
            ),
            (["P1", "failed", "--screenshot", shot], "a failed pose needs the finding it maps to"),
            (["P3", "not_run"], "a pose not run needs a reason"),
            (
                ["P10", "passed", "--device", "iPhone Duo Simulator"],
                "P10 can only be verified on a device, not on iPhone Duo Simulator"
            ),
            (["P17", "passed"], "unknown pose 'P17'"),
            (["P13", "passed"], "P13 can only be verified on a device: passing it needs the device it passed on"),
        ]
        for (arguments, message) in refusals {
            let (status, _, error) = try daemon.barkeep(["pose", "record", "app", "Inbox"] + arguments)
            #expect(status == 1)
            #expect(error.hasPrefix("barkeep: " + message), "\(error)")
        }
        #expect(try array(try daemon.barkeep(["--json", "pose", "history", "app", "Inbox"]).1).isEmpty)
        #expect(try array(try daemon.barkeep(["--json", "findings", "app"]).1).isEmpty)

        // The same results, given what they need, are recorded; the matrix shows the latest.
        let failed = try daemon.barkeep([
            "--json", "pose", "record", "app", "Inbox", "P1", "failed", "--screenshot", shot, "--item",
            "Bar overlaps",
        ])
        #expect(failed.0 == 0)
        let item = try #require(try object(failed.1)["finding"] as? Int)
        #expect(
            try daemon.barkeep(["pose", "record", "app", "Inbox", "P3", "not_run", "--reason", "no device"]).0 == 0)
        #expect(
            try daemon.barkeep(["pose", "record", "app", "Inbox", "P10", "passed", "--device", "iPhone Duo"]).0 == 0)
        #expect(try daemon.barkeep(["pose", "record", "app", "Inbox", "P1", "passed"]).0 == 0)
        let matrix = try daemon.barkeep(["poses", "app"]).1
        #expect(matrix == "SCREEN  P1  P2  P3  P4  P11  P12\nInbox   ✓   ·   –   ·   ·    ·\n")
        let history = try array(try daemon.barkeep(["--json", "pose", "history", "app", "Inbox", "P1"]).1)
        #expect(history.map { $0["result"] as? String } == ["failed", "passed"])
        #expect(history.first?["finding"] as? Int == item)
    }

    @Test("steps: done refused while a finding of the step is open, naming it; screen show says why not done")
    func steps() throws {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        let fixture = try #require(Fixtures.directory) + "/duo_scan/gilrodar_ToolBar.json"
        #expect(try daemon.barkeep(["ingest", "app", fixture]).0 == 0)
        let findings = try array(try daemon.barkeep(["--json", "findings", "app", "--rule", "DUO007"]).1)
        let file = try #require(findings.first?["file"] as? String)
        let id = try #require(findings.first?["id"] as? Int)
        _ = try daemon.barkeep(["screen", "add", "app", "Toolbar", "--path", file])

        let refused = try daemon.barkeep(["step", "set", "app", "Toolbar", "container", "done"])
        #expect(refused.0 == 1)
        #expect(refused.2.contains("step 1 (container) of Toolbar cannot be done: finding \(id) (DUO007 \(file):"))
        #expect(
            try daemon.barkeep(["step", "set", "app", "Toolbar", "2", "not_applicable"]).1
                == "Step 2 (order) of Toolbar is now not_applicable.\n")

        let shown = try object(try daemon.barkeep(["--json", "screen", "show", "app", "Toolbar"]).1)
        let why = try #require(shown["why"] as? [[String: String]])
        #expect(why.first?["text"]?.hasPrefix("finding \(id) (DUO007") == true)
        #expect(why.contains { $0["text"] == "step 1 (container) is to do" })
        #expect(!why.contains { $0["text"] == "step 2 (order) is to do" })
        #expect(why.contains { $0["text"] == "pose P12 has no result" })
        let history = try #require(shown["history"] as? [[String: Any]])
        #expect(
            history.map { "\($0["kind"] ?? "") \($0["subject"] ?? "")" } == [
                "screen.added Toolbar", "step.state Toolbar step 2 (order)",
            ])
        let screen = try #require(shown["screen"] as? [String: Any])
        #expect(screen["done"] as? Bool == false)
        #expect(screen["findings"] as? Int == 1)

        #expect(
            try daemon.barkeep(["finding", "set", "app", String(id), "declined", "--reason", "custom bar kept"]).0 == 0)
        #expect(try daemon.barkeep(["step", "set", "app", "Toolbar", "1", "done"]).0 == 0)
    }

    @Test("screen discover over SwiftUI and UIKit sources proposes exactly the screens; --apply twice adds once")
    func discover() throws {
        let root = try TemporaryDirectory.make(prefix: "barkeep-discover")
        let files: [String: String] = [
            "App/Inbox/InboxView.swift": """
            import SwiftUI
            // struct Fake: View {} is a comment
            struct InboxView: View {
                var body: some View { VStack { InboxRow(); MessageRow() }.navigationTitle("Inbox") }
            }
            struct InboxRow: View { var body: some View { Text("struct Nope: View {}") } }
            struct InboxStyle: ViewModifier { func body(content: Content) -> some View { content } }
            """,
            "App/Base/BaseViewController.swift": """
            import UIKit
            class BaseViewController: UIViewController {}
            """,
            "App/Settings/SettingsViewController.swift": """
            import UIKit
            final class SettingsViewController: BaseViewController {
                override func viewDidLoad() { title = "Settings" }
            }
            """,
            "App/Compose/ComposeController.h": """
            @interface ComposeController : UITableViewController
            @end
            @interface ComposeController (Drafts)
            @end
            """,
            "App/Compose/ComposeController.m": """
            @implementation ComposeController
            - (void)viewDidLoad { self.navigationItem.prompt = nil; }
            @end
            """,
            "App/Model/Message.swift": """
            struct Message: Codable { let id: Int }
            struct MessageDetail: View { var body: some View { Text("").toolbar {} } }
            """,
            "AppTests/Info.plist": "",
            "AppTests/FakeView.swift": "struct FakeView: View { var body: some View { Text(\"\").toolbar {} } }\n",
            "App/Rows/MessageRow.swift": "struct MessageRow: View { var body: some View { Text(\"m\") } }\n",
            "App/AppDelegate.swift": """
            import UIKit
            @main class AppDelegate: UIResponder, UIApplicationDelegate {}
            """,
            ".build/checkouts/Dep/Hidden.swift": "struct Hidden: View { var body: some View { EmptyView() } }\n",
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])

        let proposed = try daemon.barkeep(["--json", "screen", "discover", "app", root])
        #expect(proposed.0 == 0, "\(proposed.2)")
        let discovered = try object(proposed.1)
        let proposals = try #require(discovered["screens"] as? [[String: Any]])
        #expect(
            proposals.map { [$0["key"] as? String, ($0["globs"] as? [String])?.first, $0["status"] as? String] } == [
                ["ComposeController", "App/Compose/ComposeController.*", "new"],
                ["InboxView", "App/Inbox/InboxView.*", "new"],
                ["SettingsViewController", "App/Settings/SettingsViewController.*", "new"],
            ])
        let inbox = try #require(proposals.first { $0["key"] as? String == "InboxView" })
        #expect(inbox["types"] as? [String] == ["InboxView"])
        #expect(inbox["reasons"] as? [String] == ["navigationTitle"])
        #expect(
            (inbox["uses"] as? [[String: Any]])?.map { $0["name"] as? String } == ["InboxRow", "MessageRow"])
        let components = try #require(discovered["components"] as? [[String: Any]])
        #expect(
            components.map { $0["name"] as? String } == ["BaseViewController", "InboxRow", "InboxStyle", "MessageRow"])
        #expect(components.map { $0["kind"] as? String } == ["controller", "view", "part", "view"])
        #expect(components.map { $0["base"] as? Bool } == [true, false, false, false])
        #expect(discovered["app_files"] as? [String] == ["App/AppDelegate.swift"])
        #expect(
            (discovered["embedded_screens"] as? [[String: Any]])?.map {
                [$0["name"] as? String, $0["main_type"] as? String]
            } == [["MessageDetail", "Message"]])
        #expect(
            (discovered["left_out"] as? [[String: Any]])?.map {
                [$0["directory"] as? String, $0["reason"] as? String, ($0["files"] as? Int).map(String.init)]
            } == [["AppTests", "tests", "2"]])
        let text = try daemon.barkeep(["screen", "discover", "app", root]).1
        #expect(text.contains("  MessageDetail  App/Model/Message.swift (owned by Message)  toolbar\n"))
        #expect(text.contains("  2 files of test directories (named Tests or …Tests): AppTests\n"))
        // A new project has only its app area.
        #expect(
            try array(try daemon.barkeep(["--json", "screen", "list", "app"]).1).map { $0["key"] as? String }
                == ["app"])

        func statuses(_ output: String) throws -> [String?] {
            try (object(output)["screens"] as? [[String: Any]] ?? []).map { $0["status"] as? String }
        }
        let applied = try daemon.barkeep(["--json", "screen", "discover", "app", root, "--apply"]).1
        #expect(try statuses(applied) == ["created", "created", "created"])
        // What it created, by kind; the test directory it left out is excluded from the audit.
        #expect(
            try object(applied)["applied"] as? [String: Int] == [
                "screens": 3, "components": 2, "existing": 0, "app_files": 1, "excluded": 1,
            ])
        #expect(try daemon.barkeep(["screen", "exclude", "app", "--list"]).1.contains("AppTests  tests"))
        let again = try daemon.barkeep(["--json", "screen", "discover", "app", root, "--apply"]).1
        #expect(try statuses(again) == ["exists", "exists", "exists"])
        #expect(
            try object(again)["applied"] as? [String: Int] == [
                "screens": 0, "components": 0, "existing": 3, "app_files": 0, "excluded": 0,
            ])
        _ = try daemon.barkeep(["project", "create", "app2"])
        let summary = try daemon.barkeep(["screen", "discover", "app2", root, "--apply"]).1
        #expect(
            summary.hasSuffix(
                "Created 3 screens and 2 components; 1 app file added to the app area and 1 left-out directory "
                    + "excluded.\n"), "\(summary)")
        let screens = try array(try daemon.barkeep(["--json", "screen", "list", "app"]).1)
        let byKind = { (kind: String) in screens.filter { $0["kind"] as? String == kind } }
        #expect(
            byKind("screen").map { $0["key"] as? String } == [
                "ComposeController", "InboxView", "SettingsViewController",
            ])
        #expect(
            byKind("screen").map { $0["paths"] as? [String] }
                == proposals.map { ($0["globs"] as? [String] ?? []).sorted() })
        // The components in files of their own are added and used (a base class by the screens deriving from
        // it); the app delegate joins the app area.
        #expect(byKind("component").map { $0["key"] as? String } == ["BaseViewController", "MessageRow"])
        #expect(byKind("component").map { $0["uses"] as? [String] } == [["SettingsViewController"], ["InboxView"]])
        #expect(screens.first { $0["key"] as? String == "InboxView" }?["uses"] as? [String] == ["MessageRow"])
        #expect((byKind("area").first?["paths"] as? [String])?.contains("App/AppDelegate.swift") == true)

        // A removed screen is not proposed again; neither is a dismissed one, until the dismissal is undone.
        #expect(try daemon.barkeep(["screen", "remove", "app", "InboxView", "--yes"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "dismiss", "app", "NotYetAScreen"]).0 == 0)
        let afterRemoval = try daemon.barkeep(["--json", "screen", "discover", "app", root, "--apply"]).1
        #expect(try statuses(afterRemoval) == ["exists", "dismissed", "exists"])
        #expect(
            try daemon.barkeep(["screen", "dismiss", "app", "--list"]).1.split(separator: "\n").dropFirst()
                .map { String($0.prefix(while: { $0 != " " })) } == ["InboxView", "NotYetAScreen"])
        #expect(try daemon.barkeep(["screen", "dismiss", "app", "InboxView", "--undo"]).0 == 0)
        let restored = try daemon.barkeep(["--json", "screen", "discover", "app", root, "--apply"]).1
        #expect(try statuses(restored) == ["exists", "created", "exists"])
    }
}
