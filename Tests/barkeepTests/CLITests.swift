import BarkeepTestSupport
import Foundation
import Testing

/// The CLI's contract with scripts: output, exit codes 0 / 1 / 64, and help.
@Suite("barkeep CLI")
struct CLITests {
    private let barkeep = BuildProducts.path("barkeep")

    @Test(
        "usage errors exit 64 and name the problem",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["ping", "extra"], "unexpected argument 'extra'"),
            (["--server"], "--server needs a value"),
            (["--server", "nowhere", "ping"], "bad address 'nowhere'"),
            (["ping", "--colour"], "unknown option '--colour'"),
            ([], "USAGE: barkeep <command>"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try Subprocess.run(barkeep, arguments)
        #expect(result.status == 64)
        #expect(result.error.contains(message), "stderr: \(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test("an unreachable daemon is a failure (exit 1) that says where it looked")
    func unreachableDaemon() throws {
        let result = try Subprocess.run(barkeep, ["--server", "127.0.0.1:1", "ping"])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot reach barkeepd at 127.0.0.1:1"))
    }

    @Test("BARKEEP_SERVER is used when --server is absent")
    func serverFromEnvironment() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["BARKEEP_SERVER"] = "unix:/nonexistent/barkeep.sock"
        let result = try Subprocess.run(barkeep, ["ping"], environment: environment)
        #expect(result.status == 1)
        #expect(result.error.contains("unix:/nonexistent/barkeep.sock"))
    }

    @Test("--help and --version print to standard output and exit 0")
    func helpAndVersion() throws {
        let help = try Subprocess.run(barkeep, ["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: barkeep <command> [options]"))
        #expect(help.output.contains("ping"))
        let pingHelp = try Subprocess.run(barkeep, ["ping", "--help"])
        #expect(pingHelp.output.contains("USAGE: barkeep ping"))
        let version = try Subprocess.run(barkeep, ["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("barkeep "))
        let daemonHelp = try Subprocess.run(BuildProducts.path("barkeepd"), ["--help"])
        #expect(daemonHelp.status == 0)
        #expect(daemonHelp.output.contains("--database-url URL"))
    }
}
