import BarkeepStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for end-to-end tests, with its output captured in files that tests can read while it runs.
///
/// Built on the store's `ProcessSpawner`: Foundation's Process can hang on Linux when a child leaves a daemon
/// behind (barkeepd starts PostgreSQL).
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
        // posix_spawn has no portable chdir action: a shell changes directory, then becomes the program.
        let command =
            directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] + arguments }
            ?? [executable] + arguments
        let pid = try ProcessSpawner.spawn(
            command,
            environment: environment,
            standardOutput: outputPath,
            standardError: errorPath,
            newSession: detached
        )
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
            if let status = reap() { return status }
            if ContinuousClock.now >= deadline { return nil }
            usleep(20_000)
        }
    }

    /// Waits until standard error holds `text`; returns false if the child exits or the time runs out first.
    public func waitForError(containing text: String, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if errorOutput.contains(text) { return true }
            if reap() != nil { return errorOutput.contains(text) }
            usleep(20_000)
        }
        return false
    }

    /// The exit code if the child has exited, collecting it the first time; nil while it runs.
    private func reap() -> Int32? {
        lock.withLock {
            if let status { return status }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            status = ProcessSpawner.exitCode(fromWaitStatus: raw)
            return status
        }
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

extension Subprocess {
    /// Starts the built barkeepd with `arguments` (plus `--listen 127.0.0.1:PORT`, 0 for a free port), waits for its
    /// `msg=ready` line, and returns it with the TCP port it serves. A daemon that does not become ready is killed
    /// and its log becomes the error. With `fileLimit`, the daemon runs with at most that many descriptors.
    public static func startDaemon(
        _ arguments: [String],
        port: UInt16 = 0,
        fileLimit: Int? = nil
    ) throws -> (Subprocess, UInt16) {
        // No HTTP unless the test asks for it (`--http 127.0.0.1:0`): parallel daemons must not fight over its
        // default port.
        let http = arguments.contains("--http") || arguments.contains("--no-http") ? [] : ["--no-http"]
        let command = [BuildProducts.path("barkeepd")] + arguments + http + ["--listen", "127.0.0.1:\(port)"]
        // With a file limit, a shell lowers it (soft and hard, so the daemon cannot raise it) and becomes barkeepd.
        let daemon =
            try fileLimit.map { limit in
                try spawn("/bin/sh", ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\""] + command)
            } ?? spawn(command[0], Array(command.dropFirst()))
        guard daemon.waitForError(containing: "msg=ready", timeout: .seconds(120)) else {
            daemon.signal(SIGKILL)
            throw TestSupportError(
                "barkeepd did not become ready (exit \(daemon.wait(timeout: .zero).map(String.init) ?? "none")):\n"
                    + daemon.errorOutput
            )
        }
        let ready = daemon.errorOutput.split(separator: "\n").first { $0.contains("msg=ready") } ?? ""
        let field = ready.split(separator: " ").first { $0.hasPrefix("tcp=") } ?? ""
        guard let bound = UInt16(field.split(separator: ":").last ?? "") else {
            throw TestSupportError("barkeepd's ready line names no TCP port: \(ready)")
        }
        return (daemon, bound)
    }

    /// The value of field `name` in a started daemon's ready line (`http` → `127.0.0.1:41234`); nil without one.
    public static func readyField(_ daemon: Subprocess, _ name: String) -> String? {
        let ready = daemon.errorOutput.split(separator: "\n").first { $0.contains("msg=ready") } ?? ""
        let field = ready.split(separator: " ").first { $0.hasPrefix(name + "=") }
        return field.map { String($0.dropFirst(name.count + 1)) }
    }
}
