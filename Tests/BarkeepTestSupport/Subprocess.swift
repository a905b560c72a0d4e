import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for end-to-end tests, with its output captured in files that tests can read while it runs.
///
/// Built on posix_spawn and waitpid: Foundation's Process can hang on Linux when a child leaves a daemon behind
/// (barkeepd starts PostgreSQL).
public final class Subprocess: @unchecked Sendable {
    // @unchecked: `status` is written only under `lock`; the rest is immutable.
    /// The child's process id.
    public let pid: pid_t
    /// The file receiving the child's standard output.
    public let outputPath: String
    /// The file receiving the child's standard error.
    public let errorPath: String
    private let lock = NSLock()
    private var status: Int32?

    private init(pid: pid_t, outputPath: String, errorPath: String) {
        self.pid = pid
        self.outputPath = outputPath
        self.errorPath = errorPath
    }

    /// Starts `executable`. A detached child gets its own session, so it outlives the test process.
    public static func spawn(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        directory: String? = nil,
        detached: Bool = false
    ) throws -> Subprocess {
        let base = try TemporaryDirectory.make(prefix: "barkeep-proc")
        let outputPath = base + "/stdout"
        let errorPath = base + "/stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        // POSIX_SPAWN_SETSID (glibc 2.26+), which Swift does not import.
        if detached { flags |= 0x80 }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        // posix_spawn has no portable chdir action: a shell changes directory, then becomes the program.
        let command =
            directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] + arguments }
            ?? [executable] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = environmentList.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw TestSupportError("cannot run \(executable): \(String(cString: strerror(result)))")
        }
        return Subprocess(pid: pid, outputPath: outputPath, errorPath: errorPath)
    }

    /// Runs a program to completion and returns its exit code and output.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        directory: String? = nil,
        timeout: Duration = .seconds(60)
    ) throws -> (status: Int32, output: String, error: String) {
        let process = try spawn(executable, arguments, environment: environment, directory: directory)
        guard let status = process.wait(timeout: timeout) else {
            process.signal(SIGKILL)
            _ = process.wait(timeout: .seconds(5))
            throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeout)")
        }
        return (status, process.output, process.errorOutput)
    }

    /// Everything the child wrote to standard output so far.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// Everything the child wrote to standard error so far.
    public var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Sends a signal.
    public func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for the child to exit; returns its exit code (128+N when killed by signal N), or nil on timeout.
    public func wait(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = lock.withLock({ status }) { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                lock.withLock { status = code }
                return code
            }
            if ContinuousClock.now >= deadline { return nil }
            usleep(20_000)
        }
    }

    /// Waits until standard error holds `text`; returns false if the child exits or the time runs out first.
    public func waitForError(containing text: String, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if errorOutput.contains(text) { return true }
            if lock.withLock({ status }) != nil { return errorOutput.contains(text) }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                lock.withLock { status = code }
                return errorOutput.contains(text)
            }
            usleep(20_000)
        }
        return false
    }
}

/// Where `swift build` put the products (barkeepd, barkeep): beside the test bundle.
public enum BuildProducts {
    /// The directory holding the built executables.
    public static var directory: String {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            if FileManager.default.isExecutableFile(atPath: url.path + "/barkeepd") { return url.path }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug").standardizedFileURL.path
    }

    /// The path of a built executable.
    public static func path(_ name: String) -> String { directory + "/" + name }
}
