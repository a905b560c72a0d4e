import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts programs with posix_spawn: the server programs of the embedded PostgreSQL, and the binaries under test.
/// It stays in the store because the embedded cluster (`PostgresBinaries`) needs it and dependencies point down; the
/// sync sources' scanner supervision (pipes, time and output limits, killing) is `BarkeepSources`' `ScannerProcess`,
/// built on `launch`.
///
/// Not Foundation's Process: its wait on Linux can hang when the program leaves a daemon behind, as `pg_ctl start`
/// does.
public enum ProcessSpawner {
    /// POSIX_SPAWN_SETSID (glibc 2.26+), which Swift does not import.
    private static let setSessionFlag: Int32 = 0x80

    /// Starts `arguments[0]` (a path) and returns its process id. Standard input is /dev/null; standard output and
    /// error are appended to the given files (created 0600), never pipes: a daemon the program leaves behind would
    /// keep a pipe open forever. The daemon ignores some signals and ignored signals survive exec, so the child
    /// gets every signal's default action back and an empty mask. `newSession` detaches it from the terminal's
    /// process group, so it outlives an interrupt of its parent.
    public static func spawn(
        _ arguments: [String],
        environment: [String: String]? = nil,
        standardOutput: String,
        standardError: String,
        newSession: Bool = false
    ) throws(StoreError) -> pid_t {
        guard let program = arguments.first else { throw .cluster("no program to run") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_APPEND, 0o600)

        let environment = environment ?? ProcessInfo.processInfo.environment
        let (pid, result) = launch(arguments, environment: environment, actions: &actions, newSession: newSession)
        guard result == 0 else { throw .cluster("cannot run \(program): \(errorText(result))") }
        return pid
    }

    /// Waits for `pid` to exit and returns its exit code (128 + N when signal N killed it).
    public static func wait(for pid: pid_t) throws(StoreError) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw .cluster("cannot wait for process \(pid): \(errorText())")
            }
        }
        return exitCode(fromWaitStatus: status)
    }

    /// Calls posix_spawn for `arguments[0]` (a path) with `actions`, the environment in name order, and clean
    /// signal state: the daemon ignores some signals and ignored signals survive exec, so the child gets every
    /// signal's default action back and an empty mask. `newSession` makes the child the leader of a session and
    /// process group of its own. Returns the process id, or 0 and posix_spawn's error number.
    public static func launch(
        _ arguments: [String],
        environment: [String: String],
        actions: inout posix_spawn_file_actions_t,
        newSession: Bool
    ) -> (pid: pid_t, error: Int32) {
        guard let program = arguments.first else { return (0, ENOENT) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if newSession { flags |= setSessionFlag }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        return result == 0 ? (pid, 0) : (0, result)
    }

    /// WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import: the low 7 bits hold the signal, the next
    /// byte the exit code.
    public static func exitCode(fromWaitStatus status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
