import BarkeepCore
import BarkeepStore
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The unprivileged user a root daemon runs scanners as (`barkeepd --scanner-user`, `nobody` by default).
public struct ScannerUser: Sendable, Equatable {
    /// The user's name.
    public var name: String
    /// Its uid.
    public var uid: UInt32
    /// Its primary group; the scanner gets no supplementary group.
    public var gid: UInt32

    /// A user by its ids.
    public init(name: String, uid: UInt32, gid: UInt32) {
        self.name = name
        self.uid = uid
        self.gid = gid
    }

    /// The user named `name` in the system's user database, or nil when there is none.
    public static func named(_ name: String) -> ScannerUser? {
        guard let entry = getpwnam(name) else { return nil }
        return ScannerUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }
}

/// One run of a sync source's scanner: what to run, where, and within which limits.
public struct ScannerInvocation: Sendable {
    /// A shell command, run as `/bin/sh -c command` (see `ScannerCommand.expand(_:root:)`).
    public var command: String
    /// The directory the command starts in.
    public var workingDirectory: String
    /// The command's whole environment: nothing of the daemon's is added (see `ScannerCommand.environment`).
    public var environment: [String: String]
    /// How long the command may run before its process group is sent SIGTERM, then SIGKILL.
    public var timeLimit: Duration
    /// How many bytes of standard output the command may write; past that its process group is killed.
    public var outputLimit: Int
    /// An existing directory for the files capturing standard output and error; they are unlinked as soon as the
    /// command has them open, so nothing is left behind however the run ends.
    public var scratchDirectory: String
    /// The user to run the command as; nil runs it as the daemon's user.
    public var user: ScannerUser?

    /// Creates an invocation.
    public init(
        command: String,
        workingDirectory: String,
        environment: [String: String],
        timeLimit: Duration,
        outputLimit: Int,
        scratchDirectory: String,
        user: ScannerUser? = nil
    ) {
        self.user = user
        self.command = command
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.timeLimit = timeLimit
        self.outputLimit = outputLimit
        self.scratchDirectory = scratchDirectory
    }
}

/// How a scanner run ended. `diagnostics` is the end of the scanner's standard error (at most 2 KiB, trimmed, valid
/// UTF-8, control characters other than newline and tab replaced), empty when it wrote none.
public enum ScannerOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The scanner exited with status 0; `output` is everything it wrote to standard output.
    case finished(output: [UInt8], diagnostics: String)
    /// The scanner exited with another status (128 + N when signal N ended it), or its status was lost (-1).
    case failed(exitCode: Int32, diagnostics: String)
    /// The scanner ran past its time limit and its process group was killed.
    case timedOut(limit: Duration, diagnostics: String)
    /// The scanner wrote more than its output limit and its process group was killed.
    case outputTooLarge(limit: Int, diagnostics: String)
    /// The caller asked to stop (its `tick` returned false) and the scanner's process group was killed.
    case cancelled
    /// The scanner could not be started; the reason is user-facing.
    case cannotStart(String)

    /// A user-facing sentence for a source's last error, ending with the scanner's own error output when there is
    /// some.
    public var description: String {
        switch self {
        case .finished(let output, _):
            return "the scanner finished with \(output.count) bytes of output"
        case .failed(let exitCode, let diagnostics):
            let status: String
            if exitCode < 0 {
                status = "the scanner exited, but its exit status was lost"
            } else if exitCode > 128 && exitCode <= 128 + 64 {
                status = "the scanner exited with status \(exitCode) (signal \(exitCode - 128))"
            } else {
                status = "the scanner exited with status \(exitCode)"
            }
            return Self.joined(status, diagnostics)
        case .timedOut(let limit, let diagnostics):
            return Self.joined(
                "the scanner ran longer than its \(Self.describe(limit)) limit and was killed",
                diagnostics
            )
        case .outputTooLarge(let limit, let diagnostics):
            return Self.joined(
                "the scanner wrote more than \(Self.describe(bytes: limit)) of output and was killed",
                diagnostics
            )
        case .cancelled:
            return "the scanner was stopped before it finished because the source was stopped"
        case .cannotStart(let reason):
            return "the scanner could not be started: \(reason)"
        }
    }

    private static func joined(_ summary: String, _ diagnostics: String) -> String {
        diagnostics.isEmpty ? summary : "\(summary): \(diagnostics)"
    }

    /// `5 s`, `1.5 s`, `250 ms`, `2 min`: how people read a limit.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = Int64((duration.milliseconds).rounded())
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000) min" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000).\(fraction) s"
    }

    /// Exact below 1 MiB, where the number is still readable; a binary unit above when it divides the limit.
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 10) == 0 { return QuantityText.describe(bytes: bytes) }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}

/// Runs scanner commands as a process group that can always be killed whole, with a time limit, an output cap and
/// cancellation.
///
/// `run` blocks its thread for as long as the scanner runs: call it from a dedicated thread, never from Swift's
/// cooperative pool.
public enum ScannerProcess {
    /// How much of standard error becomes the diagnostics.
    static let diagnosticsLimit = 2048
    /// How long a scanner past its time limit may take to exit after SIGTERM before SIGKILL.
    static let terminationGrace: Duration = .seconds(2)
    /// How often `tick` is asked whether to go on.
    static let tickInterval: Duration = .milliseconds(250)
    /// The longest pause between two checks of the child.
    static let pollInterval: Duration = .milliseconds(50)

    /// Runs `/bin/sh -c invocation.command` in a new session and returns how it ended. `tick` is called about
    /// every 250 ms while the scanner runs; when it returns false the scanner's process group is killed and the
    /// outcome is `.cancelled`. Whatever the outcome, the child is reaped and its whole process group killed, so no
    /// process the scanner started in its group outlives the run.
    public static func run(_ invocation: ScannerInvocation, tick: () -> Bool) -> ScannerOutcome {
        run(
            arguments: ["/bin/sh", "-c", invocation.command],
            environment: invocation.environment,
            workingDirectory: invocation.workingDirectory,
            timeLimit: invocation.timeLimit,
            outputLimit: invocation.outputLimit,
            scratchDirectory: invocation.scratchDirectory,
            user: invocation.user,
            tick: tick
        )
    }

    /// Runs `arguments[0]` (a path) with `arguments` under the same rules as `run(_:tick:)`; for programs that need
    /// no shell, such as git.
    static func run(
        arguments: [String],
        environment: [String: String],
        workingDirectory: String,
        timeLimit: Duration,
        outputLimit: Int,
        scratchDirectory: String,
        user: ScannerUser? = nil,
        tick: () -> Bool
    ) -> ScannerOutcome {
        let output: Int32
        let errors: Int32
        do {
            output = try makeCaptureFile(in: scratchDirectory)
            errors = try makeCaptureFile(in: scratchDirectory)
        } catch {
            return .cannotStart(error.reason)
        }
        defer {
            close(output)
            close(errors)
        }
        let pid: pid_t
        switch spawn(
            arguments, environment: environment, workingDirectory: workingDirectory, output: output, errors: errors,
            user: user)
        {
        case .success(let spawned): pid = spawned
        case .failure(let error): return .cannotStart(error.reason)
        }

        let verdict = supervise(pid, output: output, timeLimit: timeLimit, outputLimit: outputLimit, tick: tick)
        // The shell has exited but is not reaped yet, so its pid cannot be reused and still names its process
        // group: kill whatever it left behind in it before reaping.
        kill(-pid, SIGKILL)
        // 128 + N for signal N; -1 when it was reaped elsewhere.
        let exitCode = (try? ProcessSpawner.wait(for: pid)) ?? -1

        let diagnostics = diagnosticsText(readTail(of: errors, limit: diagnosticsLimit))
        switch verdict {
        case .timedOut: return .timedOut(limit: timeLimit, diagnostics: diagnostics)
        case .outputTooLarge: return .outputTooLarge(limit: outputLimit, diagnostics: diagnostics)
        case .cancelled: return .cancelled
        case .exited: break
        }
        guard exitCode == 0 else { return .failed(exitCode: exitCode, diagnostics: diagnostics) }
        guard let bytes = readAll(of: output, limit: outputLimit) else {
            return .outputTooLarge(limit: outputLimit, diagnostics: diagnostics)
        }
        return .finished(output: bytes, diagnostics: diagnostics)
    }

    // MARK: - Supervision

    /// Why supervision ended.
    private enum Verdict {
        case exited, timedOut, outputTooLarge, cancelled
    }

    /// Watches the child until it exits (without reaping it), killing its group when a limit is crossed or `tick`
    /// says stop.
    private static func supervise(
        _ pid: pid_t,
        output: Int32,
        timeLimit: Duration,
        outputLimit: Int,
        tick: () -> Bool
    ) -> Verdict {
        let clock = ContinuousClock()
        let start = clock.now
        var lastTick = start
        var verdict = Verdict.exited
        var terminatedAt: ContinuousClock.Instant?
        var hasSentKill = false
        // Short pauses first, so a scanner that finishes at once costs milliseconds, not a whole interval.
        var pause: Duration = .milliseconds(1)
        while !hasExited(pid) {
            let now = clock.now
            if now - lastTick >= tickInterval {
                lastTick = now
                if !tick() && !hasSentKill {
                    if verdict == .exited { verdict = .cancelled }
                    kill(-pid, SIGKILL)
                    hasSentKill = true
                }
            }
            if verdict == .exited {
                if size(of: output) > outputLimit {
                    verdict = .outputTooLarge
                    kill(-pid, SIGKILL)
                    hasSentKill = true
                } else if now - start >= timeLimit {
                    verdict = .timedOut
                    kill(-pid, SIGTERM)
                    terminatedAt = now
                }
            } else if let terminatedAt, !hasSentKill, now - terminatedAt >= terminationGrace {
                kill(-pid, SIGKILL)
                hasSentKill = true
            }
            Thread.sleep(forTimeInterval: pause.seconds)
            pause = min(pause * 2, pollInterval)
        }
        return verdict
    }

    /// Whether the child has exited, leaving it unreaped (WNOWAIT) so its pid stays reserved.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 {
            // ECHILD: someone else reaped it (SIGCHLD ignored); there is nothing left to wait for.
            guard errno == EINTR else { return true }
        }
        // With WNOHANG and no exited child, the kernel leaves si_signo 0.
        return info.si_signo == SIGCHLD
    }

    // MARK: - Spawning

    /// A spawn or capture failure, phrased for the user.
    private struct StartFailure: Error {
        let reason: String
    }

    /// An anonymous file for the child's output: created with a fresh name and unlinked at once, so the descriptor
    /// is all that remains and nothing is left to clean up. Close-on-exec, so no other child inherits it.
    private static func makeCaptureFile(in directory: String) throws(StartFailure) -> Int32 {
        for _ in 0..<16 {
            let path = "\(directory)/scanner-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).capture"
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                unlink(path)
                return descriptor
            }
            guard errno == EEXIST else { break }
        }
        throw StartFailure(reason: "cannot create the files capturing its output: \(errorText())")
    }

    private static func spawn(
        _ arguments: [String],
        environment: [String: String],
        workingDirectory: String,
        output: Int32,
        errors: Int32,
        user: ScannerUser?
    ) -> Result<pid_t, StartFailure> {
        guard let program = arguments.first else { return .failure(StartFailure(reason: "there is no program to run")) }
        if let user {
            return spawn(arguments, as: user, environment: environment, directory: workingDirectory, output, errors)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        barkeep_spawn_addchdir(&actions, workingDirectory)
        barkeep_spawn_addclosefrom(&actions, 3)

        // Its own session makes the scanner a process group leader, so kill(-pid) reaches all it starts.
        let (pid, result) = ProcessSpawner.launch(
            arguments, environment: environment, actions: &actions, newSession: true)
        guard result == 0 else {
            // glibc reports a failed chdir and a failed exec alike; tell them apart for the user.
            var status = stat()
            if stat(workingDirectory, &status) != 0 || status.st_mode & S_IFMT != S_IFDIR {
                return .failure(StartFailure(reason: "its working directory is missing or not a directory"))
            }
            return .failure(StartFailure(reason: "cannot run \(program): \(errorText(result))"))
        }
        return .success(pid)
    }

    /// Starts the program as `user` through the C shim's fork, setgid, setuid and exec (posix_spawn cannot change
    /// the user).
    private static func spawn(
        _ arguments: [String],
        as user: ScannerUser,
        environment: [String: String],
        directory: String,
        _ output: Int32,
        _ errors: Int32
    ) -> Result<pid_t, StartFailure> {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let pid = barkeep_spawn_as(arguments[0], argv, envp, directory, output, errors, user.uid, user.gid)
        guard pid > 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR || code == EACCES {
                var status = stat()
                if stat(directory, &status) != 0 || status.st_mode & S_IFMT != S_IFDIR {
                    return .failure(StartFailure(reason: "its working directory is missing or not a directory"))
                }
            }
            return .failure(
                StartFailure(reason: "cannot run \(arguments[0]) as \(user.name) (uid \(user.uid)): \(errorText(code))")
            )
        }
        return .success(pid)
    }

    // MARK: - Capture files

    private static func size(of descriptor: Int32) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    /// Everything in the file, or nil when it holds more than `limit` bytes.
    private static func readAll(of descriptor: Int32, limit: Int) -> [UInt8]? {
        let total = size(of: descriptor)
        guard total <= limit else { return nil }
        return read(descriptor, from: 0, count: total)
    }

    /// The last `limit` bytes of the file.
    private static func readTail(of descriptor: Int32, limit: Int) -> [UInt8] {
        let total = size(of: descriptor)
        let start = max(0, total - limit)
        return read(descriptor, from: start, count: total - start)
    }

    /// pread, which leaves alone the file offset the child shares.
    private static func read(_ descriptor: Int32, from offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + filled }, count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

    /// The standard error tail as text for a message: a character cut at the start is dropped, invalid UTF-8 and
    /// control characters (terminal escapes among them) become U+FFFD, carriage returns go, and the result is
    /// trimmed and kept within `diagnosticsLimit` bytes.
    static func diagnosticsText(_ bytes: [UInt8]) -> String {
        // Skip continuation bytes of a character whose start fell before the tail.
        let start = bytes.prefix(3).firstIndex { $0 & 0xC0 != 0x80 } ?? min(3, bytes.count)
        var scalars = String.UnicodeScalarView()
        for scalar in String(decoding: bytes[start...], as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x0D: continue
            case 0x09, 0x0A: scalars.append(scalar)
            case 0x00..<0x20, 0x7F, 0x80..<0xA0: scalars.append("\u{FFFD}")
            default: scalars.append(scalar)
            }
        }
        var text = Substring(String(scalars))
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        // Replacements are wider than the bytes they replace: drop from the front to stay within the limit.
        while text.utf8.count > diagnosticsLimit { text.removeFirst() }
        return String(text)
    }
}
