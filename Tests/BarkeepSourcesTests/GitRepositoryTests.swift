import BarkeepCore
import BarkeepSources
import BarkeepTestSupport
import Foundation
import Testing

/// A real git repository made by each test.
@Suite("GitRepository")
struct GitRepositoryTests {
    private static let environment = ScannerCommand.environment(
        from: ProcessInfo.processInfo.environment,
        adding: [:]
    )

    /// Runs git in `directory` and returns its standard output; a failure fails the test.
    @discardableResult
    private func git(_ arguments: [String], in directory: String) throws -> String {
        let result = try Subprocess.run(
            "/usr/bin/git",
            ["-C", directory, "-c", "user.name=t", "-c", "user.email=t@t"] + arguments,
            environment: Self.environment
        )
        guard result.status == 0 else {
            throw TestSupportError("git \(arguments.joined(separator: " ")) failed: \(result.error)")
        }
        return result.output
    }

    /// A repository on branch `main` with one commit per content of `report.txt`; returns its path and the commits.
    private func makeRepository(commits contents: [String]) throws -> (path: String, commits: [String]) {
        let path = try TemporaryDirectory.make(prefix: "git repo")
        try git(["init", "--quiet", "-b", "main"], in: path)
        var commits: [String] = []
        for content in contents {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path + "/report.txt"))
            try git(["add", "report.txt"], in: path)
            try git(["commit", "--quiet", "-m", content], in: path)
            commits.append(try git(["rev-parse", "HEAD"], in: path).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (path, commits)
    }

    @Test("the head of a branch is its full commit id")
    func head() throws {
        let (path, commits) = try makeRepository(commits: ["one", "two"])
        let repository = GitRepository(path: path, environment: Self.environment)
        #expect(try repository.head(of: "main") == commits[1])
        try git(["branch", "release/1.0", commits[0]], in: path)
        #expect(try repository.head(of: "release/1.0") == commits[0])
        #expect(GitRepository.isRepository(path, environment: Self.environment))
    }

    @Test("a missing branch, an invalid one and a non-repository are clear errors")
    func errors() throws {
        let (path, _) = try makeRepository(commits: ["one"])
        let repository = GitRepository(path: path, environment: Self.environment)
        #expect(throws: SourceError.git("the repository \(path) has no branch 'nope'")) {
            try repository.head(of: "nope")
        }
        #expect(throws: SourceError.git("'--all' is not a valid branch name")) {
            try repository.head(of: "--all")
        }
        let plain = try TemporaryDirectory.make(prefix: "not-git")
        #expect(!GitRepository.isRepository(plain, environment: Self.environment))
        #expect(!GitRepository.isRepository(plain + "/missing", environment: Self.environment))
        do {
            _ = try GitRepository(path: plain, environment: Self.environment).head(of: "main")
            Issue.record("a directory that is no repository had a head")
        } catch {
            #expect(error.description.hasPrefix("cannot read branch 'main' of the repository \(plain): "))
            #expect(error.description.contains("not a git repository"))
        }
    }

    @Test("a work tree holds its commit's files, and is gone from git and disk once removed")
    func worktree() throws {
        let (path, commits) = try makeRepository(commits: ["first report", "second report"])
        let repository = GitRepository(path: path, environment: Self.environment)
        let worktree = try TemporaryDirectory.make(prefix: "checkouts") + "/-checkout"
        try repository.addWorktree(at: worktree, commit: commits[0])
        #expect(try String(contentsOfFile: worktree + "/report.txt", encoding: .utf8) == "first report")
        #expect(try git(["worktree", "list", "--porcelain"], in: path).contains("worktree \(worktree)\n"))

        repository.removeWorktree(at: worktree)
        #expect(!FileManager.default.fileExists(atPath: worktree))
        #expect(!(try git(["worktree", "list", "--porcelain"], in: path).contains(worktree)))
    }

    @Test("a work tree deleted behind git's back is pruned")
    func prunedWorktree() throws {
        let (path, commits) = try makeRepository(commits: ["one"])
        let repository = GitRepository(path: path, environment: Self.environment)
        let worktree = try TemporaryDirectory.make(prefix: "checkouts") + "/checkout"
        try repository.addWorktree(at: worktree, commit: commits[0])
        try FileManager.default.removeItem(atPath: worktree)
        repository.removeWorktree(at: worktree)
        #expect(!(try git(["worktree", "list", "--porcelain"], in: path).contains(worktree)))
    }

    @Test("a work tree a killed daemon left registered does not block the next checkout at its path")
    func leftoverWorktree() throws {
        let (path, commits) = try makeRepository(commits: ["one"])
        let repository = GitRepository(path: path, environment: Self.environment)
        let worktree = try TemporaryDirectory.make(prefix: "checkouts") + "/checkout"
        try repository.addWorktree(at: worktree, commit: commits[0])
        // What a restart's clean-up of the work directory leaves: the directory gone, git still knowing it.
        try FileManager.default.removeItem(atPath: worktree)
        #expect(try git(["worktree", "list", "--porcelain"], in: path).contains(worktree))
        try repository.addWorktree(at: worktree, commit: commits[0])
        #expect(FileManager.default.fileExists(atPath: worktree + "/.git"))
        repository.removeWorktree(at: worktree)
    }

    @Test("a commit that is not a hex id is refused before git runs")
    func invalidCommit() throws {
        let (path, _) = try makeRepository(commits: ["one"])
        let repository = GitRepository(path: path, environment: Self.environment)
        #expect(throws: SourceError.git("'--orphan' is not a commit id")) {
            try repository.addWorktree(at: path + "-wt", commit: "--orphan")
        }
    }

    @Test(
        "branch names are accepted conservatively",
        arguments: [
            ("main", true), ("release/1.0", true), ("feature/x-y_z", true), ("v1.2.3", true),
            (String(repeating: "a", count: 255), true), ("caf\u{E9}", true),
            ("", false), (String(repeating: "a", count: 256), false), ("-main", false), ("has space", false),
            ("tab\there", false), ("a..b", false), ("a~1", false), ("a^", false), ("a:b", false), ("a?", false),
            ("a*", false), ("a[b", false), ("a\\b", false), ("@", false), ("a@{1}", false), ("/main", false),
            ("main/", false), ("a//b", false), ("main.", false), ("main.lock", false), ("a.lock/b", false),
            (".hidden", false), ("a/.hidden", false), ("del\u{7F}", false),
        ]
    )
    func branchNames(name: String, isValid: Bool) {
        #expect(GitRepository.isValidBranchName(name) == isValid)
    }
}
