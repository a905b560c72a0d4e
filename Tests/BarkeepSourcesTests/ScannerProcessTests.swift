import BarkeepCore
import BarkeepSources
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real scanner processes, run through /bin/sh.
@Suite("ScannerProcess")
struct ScannerProcessTests {
    private func invocation(
        _ command: String,
        in directory: String? = nil,
        environment: [String: String] = ScannerCommand.environment(from: [:], adding: [:]),
        timeLimit: Duration = .seconds(10),
        outputLimit: Int = 1 << 20
    ) throws -> ScannerInvocation {
        ScannerInvocation(
            command: command,
            workingDirectory: try directory ?? TemporaryDirectory.make(prefix: "scan-root"),
            environment: environment,
            timeLimit: timeLimit,
            outputLimit: outputLimit,
            scratchDirectory: try TemporaryDirectory.make(prefix: "scan-scratch")
        )
    }

    /// Whether `pid` is still a live process: a killed orphan may linger as a zombie when the container's init does
    /// not reap, and a zombie runs nothing.
    private func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).prefix(1)
        return state != "Z" && state != "X"
    }

    /// Waits up to 1 s for `pid` to stop running: SIGKILL is delivered asynchronously.
    private func hasStopped(_ pid: pid_t) -> Bool {
        let deadline = ContinuousClock.now + .seconds(1)
        while isRunning(pid) {
            if ContinuousClock.now > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    @Test("a scanner that exits 0 hands back its output and its standard error")
    func finished() throws {
        let outcome = ScannerProcess.run(try invocation("printf 'hello\\n'; echo warning >&2; cat")) { true }
        #expect(outcome == .finished(output: Array("hello\n".utf8), diagnostics: "warning"))
    }

    @Test("a nonzero exit carries its status and the tail of standard error")
    func failed() throws {
        let outcome = ScannerProcess.run(try invocation("echo first >&2; echo 'the last words' >&2; exit 3")) { true }
        #expect(outcome == .failed(exitCode: 3, diagnostics: "first\nthe last words"))
        #expect(outcome.description == "the scanner exited with status 3: first\nthe last words")
    }

    @Test("diagnostics keep only the last 2 KiB of standard error, as clean UTF-8")
    func diagnosticsTail() throws {
        let long = ScannerProcess.run(try invocation("head -c 5000 /dev/zero | tr '\\0' x >&2; echo END >&2; exit 1")) {
            true
        }
        guard case .failed(1, let diagnostics) = long else {
            Issue.record("unexpected outcome \(long)")
            return
        }
        #expect(diagnostics.utf8.count <= 2048)
        #expect(diagnostics.hasSuffix("xxxEND"))

        let messy = ScannerProcess.run(try invocation("printf '\\377\\033[31mred\\r\\n' >&2; exit 1")) { true }
        #expect(messy == .failed(exitCode: 1, diagnostics: "\u{FFFD}\u{FFFD}[31mred"))
    }

    @Test("a scanner past its limit is killed with everything it started")
    func timedOut() throws {
        let root = try TemporaryDirectory.make(prefix: "scan-root")
        let start = ContinuousClock.now
        let outcome = ScannerProcess.run(
            try invocation(
                "sleep 30 & echo $! > background.pid; echo started >&2; sleep 30", in: root, timeLimit: .seconds(1))
        ) { true }
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(outcome == .timedOut(limit: .seconds(1), diagnostics: "started"))
        #expect(outcome.description == "the scanner ran longer than its 1 s limit and was killed: started")
        let text = try String(contentsOfFile: root + "/background.pid", encoding: .utf8)
        let background = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(hasStopped(background))
    }

    @Test("a process a successful scanner leaves behind is killed")
    func leftoverProcess() throws {
        let root = try TemporaryDirectory.make(prefix: "scan-root")
        let outcome = ScannerProcess.run(try invocation("sleep 30 & echo $! > background.pid; echo done", in: root)) {
            true
        }
        #expect(outcome == .finished(output: Array("done\n".utf8), diagnostics: ""))
        let text = try String(contentsOfFile: root + "/background.pid", encoding: .utf8)
        let background = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(hasStopped(background))
    }

    @Test("a scanner that ignores SIGTERM is killed after the grace period")
    func ignoresTermination() throws {
        let start = ContinuousClock.now
        let outcome = ScannerProcess.run(try invocation("trap '' TERM; sleep 30", timeLimit: .milliseconds(500))) {
            true
        }
        let elapsed = ContinuousClock.now - start
        #expect(outcome == .timedOut(limit: .milliseconds(500), diagnostics: ""))
        #expect(elapsed >= .seconds(2) && elapsed < .seconds(5))
    }

    @Test(
        "output past the cap kills the scanner",
        arguments: ["head -c 100000 /dev/zero; sleep 30", "head -c 1025 /dev/zero"])
    func outputTooLarge(command: String) throws {
        let start = ContinuousClock.now
        let outcome = ScannerProcess.run(try invocation(command, outputLimit: 1024)) { true }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(outcome == .outputTooLarge(limit: 1024, diagnostics: ""))
        #expect(outcome.description == "the scanner wrote more than 1024 bytes of output and was killed")
    }

    @Test("tick returning false cancels the scanner")
    func cancelled() throws {
        let start = ContinuousClock.now
        var ticks = 0
        let outcome = ScannerProcess.run(try invocation("sleep 30")) {
            ticks += 1
            return ticks < 2
        }
        #expect(outcome == .cancelled)
        #expect(ticks == 2)
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("the scanner runs in its working directory with exactly the environment given")
    func workingDirectoryAndEnvironment() throws {
        let root = try TemporaryDirectory.make(prefix: "scan root's")
        let environment = ScannerCommand.environment(
            from: ["PATH": "/usr/bin:/bin", "HOME": "/home/scanner", "BARKEEP_SECRET": "hunter2"],
            adding: ["BARKEEP_COMMIT": "abc123"]
        )
        let outcome = ScannerProcess.run(try invocation("pwd; env", in: root, environment: environment)) { true }
        guard case .finished(let output, _) = outcome else {
            Issue.record("unexpected outcome \(outcome)")
            return
        }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first == root)
        #expect(lines.contains("PATH=/usr/bin:/bin"))
        #expect(lines.contains("HOME=/home/scanner"))
        #expect(lines.contains("BARKEEP_COMMIT=abc123"))
        #expect(!lines.contains { $0.hasPrefix("BARKEEP_SECRET=") })
        // Nothing of the test process's own environment leaks in.
        #expect(!lines.contains { $0.hasPrefix("LD_LIBRARY_PATH=") || $0.hasPrefix("SWIFT") })
    }

    @Test("a scanner that cannot start says why, without internal paths")
    func cannotStart() throws {
        let missingRoot = try invocation("true", in: "/nonexistent/checkout")
        #expect(
            ScannerProcess.run(missingRoot) { true }
                == .cannotStart("its working directory is missing or not a directory")
        )
        var missingScratch = try invocation("true")
        missingScratch.scratchDirectory = "/nonexistent/scratch"
        guard case .cannotStart(let reason) = ScannerProcess.run(missingScratch, tick: { true }) else {
            Issue.record("a missing scratch directory was not refused")
            return
        }
        #expect(!reason.contains("/nonexistent"))
    }

    @Test(
        "outcomes read well as a last error",
        arguments: [
            (ScannerOutcome.failed(exitCode: 137, diagnostics: ""), "the scanner exited with status 137 (signal 9)"),
            (.failed(exitCode: 2, diagnostics: "no such file"), "the scanner exited with status 2: no such file"),
            (
                .timedOut(limit: .seconds(300), diagnostics: ""),
                "the scanner ran longer than its 5 min limit and was killed"
            ),
            (
                .timedOut(limit: .milliseconds(1500), diagnostics: "x"),
                "the scanner ran longer than its 1.5 s limit and was killed: x"
            ),
            (
                .outputTooLarge(limit: 64 << 20, diagnostics: ""),
                "the scanner wrote more than 64MiB of output and was killed"
            ),
            (.cancelled, "the scanner was stopped before it finished because the source was stopped"),
            (
                .cannotStart("cannot run /bin/sh: Permission denied"),
                "the scanner could not be started: cannot run /bin/sh: Permission denied"
            ),
            (.finished(output: [1, 2], diagnostics: ""), "the scanner finished with 2 bytes of output"),
        ]
    )
    func descriptions(outcome: ScannerOutcome, text: String) {
        #expect(outcome.description == text)
    }
}
