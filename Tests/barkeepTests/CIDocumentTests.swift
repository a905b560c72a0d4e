import BarkeepTestSupport
import Foundation
import Testing

/// docs/ci.md's GitHub Actions workflow and GitLab CI job, run as written: Tests/CI/ci_doc_runner.py reads each YAML
/// block with PyYAML and runs its commands in a git checkout the test makes, against a real daemon with a reader's
/// token, the real scanner, and a local HTTP server standing in for GitHub's and GitLab's API (the comment is
/// really POSTed with curl). A change to the document that breaks the commands, or a change to `barkeep check`
/// that breaks the document, fails here.
@Suite("docs/ci.md's jobs, run as written")
struct CIDocumentTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The scanner beside the fixtures (`../shared/tools/duo_scan.py`).
    private static var scanner: String? {
        guard let fixtures = Fixtures.directory else { return nil }
        let path = URL(fileURLWithPath: fixtures).deletingLastPathComponent().appendingPathComponent(
            "tools/duo_scan.py"
        )
        .path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// A git checkout of a small app: the main branch's commit (ingested: the tracked state), then a pull request's
    /// commit that adds `added` to a view controller.
    private func makeCheckout(adding added: String) throws -> String {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-ci")
        func git(_ arguments: [String]) throws {
            let result = try Subprocess.run(
                "/usr/bin/env", ["git", "-c", "user.name=CI", "-c", "user.email=ci@example.com"] + arguments,
                directory: directory)
            guard result.status == 0 else { throw TestSupportError("git \(arguments): \(result.error)") }
        }
        let source = directory + "/App/Feed/FeedViewController.swift"
        try FileManager.default.createDirectory(
            atPath: directory + "/App/Feed", withIntermediateDirectories: true)
        let base = """
            import UIKit

            final class FeedViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let width = UIScreen.main.bounds.width
                    view.frame.size.width = width
                }
            }

            """
        try Data(base.utf8).write(to: URL(fileURLWithPath: source))
        try git(["init", "-q", "-b", "main"])
        try git(["add", "."])
        try git(["commit", "-q", "-m", "Feed"])
        try git(["checkout", "-q", "-b", "feature"])
        let changed = base.replacingOccurrences(
            of: "        view.frame.size.width = width\n", with: "        view.frame.size.width = width\n" + added)
        try Data(changed.utf8).write(to: URL(fileURLWithPath: source))
        try git(["commit", "-q", "-am", "Feature"])
        return directory
    }

    /// The main branch's state in the daemon: project `app`, the scan of `main` ingested by a writer.
    private func tracked(_ daemon: TestDaemon, checkout: String, scanner: String) throws -> String {
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let scan = checkout + "/../main-scan.json"
        let worktree = try TemporaryDirectory.make(prefix: "barkeep-ci-main")
        let added = try Subprocess.run(
            "/usr/bin/env", ["git", "worktree", "add", "-q", "--detach", worktree + "/main", "main"],
            directory: checkout)
        #expect(added.status == 0)
        let scanned = try Subprocess.run("/usr/bin/env", ["python3", scanner, "--format", "json", worktree + "/main"])
        try Data(scanned.output.utf8).write(to: URL(fileURLWithPath: scan))
        let ingested = try Subprocess.run(
            BuildProducts.path("barkeep"), ["ingest", "app", scan], environment: daemon.environment(),
            directory: checkout)
        #expect(ingested.status == 0, "\(ingested.error)")
        let token = try daemon.barkeep(["token", "create", "ci-check", "--role", "reader"])
        #expect(token.0 == 0)
        return String(token.1.split(separator: "\n").first ?? "")
    }

    /// Runs the document's job for `ci` in `checkout`; the runner's JSON answer.
    private func runJob(_ ci: String, in checkout: String, daemon: TestDaemon, token: String, scanner: String) throws
        -> [String: Any]
    {
        let path = BuildProducts.directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let head = try Subprocess.run("/usr/bin/env", ["git", "rev-parse", "HEAD"], directory: checkout).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let environment = [
            "PATH=\(path)", "DUO_SCAN=\(scanner)", "NO_COLOR=1", "RUNNER_TEMP=\(checkout)/..",
            "GITHUB_PATH=\(checkout)/../github-path", "GITHUB_REPOSITORY=team/app", "GITHUB_HEAD_REF=feature",
            "CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=7", "CI_COMMIT_SHA=\(head)",
            "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=feature",
            "BARKEEP_SERVER=127.0.0.1:\(daemon.port)", "BARKEEP_PROJECT=app", "BARKEEP_TOKEN=\(token)",
            "GITLAB_API_TOKEN=glpat-test", "BARKEEP_CLI_URL=http://127.0.0.1:9/not-used",
        ]
        let expressions = [
            "vars.BARKEEP_SERVER=127.0.0.1:\(daemon.port)", "vars.BARKEEP_PROJECT=app",
            "secrets.BARKEEP_TOKEN=\(token)",
            "vars.BARKEEP_CLI_URL=http://127.0.0.1:9/not-used", "github.event.pull_request.head.sha=\(head)",
            "vars.DUO_SCAN=\(scanner)",
            "github.head_ref=feature", "secrets.GITHUB_TOKEN=ghs_test", "github.event.pull_request.number=7",
        ]
        let result = try Subprocess.run(
            try PythonTools.python(),
            [
                Self.root.appendingPathComponent("Tests/CI/ci_doc_runner.py").path,
                "--doc", Self.root.appendingPathComponent("docs/ci.md").path, "--ci", ci, "--directory", checkout,
            ] + environment.flatMap { ["--env", $0] } + expressions.flatMap { ["--expression", $0] },
            timeout: .seconds(300))
        guard result.status == 0 else { throw TestSupportError("ci_doc_runner.py \(ci) failed: \(result.error)") }
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    /// What `barkeep check --format markdown` prints for the checkout's scan, recorded nowhere.
    private func markdown(_ daemon: TestDaemon, checkout: String) throws -> String {
        let result = try Subprocess.run(
            BuildProducts.path("barkeep"),
            ["check", "app", checkout + "/duo-scan.json", "--no-record", "--format", "markdown"],
            environment: daemon.environment(), directory: checkout)
        return result.output
    }

    @Test("GitHub Actions: a high finding added fails the job after the comment and SARIF; none added passes")
    func gitHubActions() throws {
        let scanner = try #require(Self.scanner, "the scanner is beside the fixtures")
        let daemon = try TestDaemon()
        let checkout = try makeCheckout(adding: "        let scale = UIScreen.main.scale\n        print(scale)\n")
        let token = try tracked(daemon, checkout: checkout, scanner: scanner)

        let job = try runJob("github", in: checkout, daemon: daemon, token: token, scanner: scanner)
        let steps = try #require(job["steps"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String ?? "" }.contains("Check"))
        #expect(job["job"] as? String == "failure")
        // Every step ran and passed but the gate, which failed with the check's exit code.
        for step in steps.dropLast() { #expect(step["status"] as? Int == 0, "\(step)") }
        #expect(steps.last?["name"] as? String == "Gate" && steps.last?["status"] as? Int == 1)

        // The comment: one POST to the pull request's issue comments, holding the check's Markdown.
        let requests = try #require(job["requests"] as? [[String: Any]])
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request["path"] as? String == "/repos/team/app/issues/7/comments")
        let headers = try #require(request["headers"] as? [String: String])
        #expect(headers["authorization"] == "Bearer ghs_test")
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: String])
        let comment = try #require(body["body"])
        #expect(comment == (try markdown(daemon, checkout: checkout)))
        #expect(comment.contains("UIScreen.main.scale"))

        // The SARIF named by the upload step is valid SARIF 2.1.0 with the new finding.
        let sarif = try #require((job["sarif"] as? [String])?.first)
        #expect(try PythonTools.sarifSchemaErrors(file: sarif) == [])
        let log = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sarif))) as? [String: Any])
        let results = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(results.count == 1)

        // One scan.checked event (the SARIF check is not recorded), naming the branch.
        let events = try daemon.barkeep(["--json", "events", "app"])
        #expect(events.0 == 0, "\(events.2)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(events.1.utf8)) as? [String: Any])
        let recorded = (page["rows"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scan.checked" }
        #expect(recorded.count == 1)
        let reason = recorded.first?["reason"] as? String ?? ""
        #expect(reason.contains("branch=feature") && reason.contains("commit="), "\(recorded)")

        // A pull request that adds no finding passes.
        let clean = try makeCheckout(adding: "        print(width)\n")
        let passed = try runJob("github", in: clean, daemon: daemon, token: token, scanner: scanner)
        #expect(passed["job"] as? String == "success", "\(passed)")
    }

    @Test("GitLab CI: the merge request's note is posted with the check's Markdown and the job fails on the gate")
    func gitLabCI() throws {
        let scanner = try #require(Self.scanner, "the scanner is beside the fixtures")
        let daemon = try TestDaemon()
        let checkout = try makeCheckout(adding: "        let scale = UIScreen.main.scale\n        print(scale)\n")
        let token = try tracked(daemon, checkout: checkout, scanner: scanner)

        let job = try runJob("gitlab", in: checkout, daemon: daemon, token: token, scanner: scanner)
        #expect(job["job"] as? String == "failure")
        #expect((job["steps"] as? [[String: Any]])?.first?["status"] as? Int == 1)
        let requests = try #require(job["requests"] as? [[String: Any]])
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request["path"] as? String == "/api/v4/projects/42/merge_requests/7/notes")
        #expect((request["headers"] as? [String: String])?["private-token"] == "glpat-test")
        // A form body: curl writes a space as `+` (and a `+` as `%2B`).
        let form = URLComponents(
            string: "?" + (request["body"] as? String ?? "").replacingOccurrences(of: "+", with: "%20"))
        let note = form?.queryItems?.first { $0.name == "body" }?.value
        #expect(note == (try markdown(daemon, checkout: checkout)))
        for artifact in try #require(job["artifacts"] as? [String]) {
            #expect(FileManager.default.fileExists(atPath: artifact), "\(artifact)")
        }
        let sarif = checkout + "/barkeep-check.sarif"
        #expect(try PythonTools.sarifSchemaErrors(file: sarif) == [])
    }
}
