import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `barkeep ingest` refuses a scan it cannot send before reading it: what is not a regular file at once, a token
/// that may not ingest, a file over the daemon's upload limit (which HELLO says), and it reads standard input no
/// further than that limit. Against a daemon whose limit is 1 MiB; nothing refused reaches the database.
@Suite("barkeep ingest: the scan file is checked before it is read")
struct ScanFileTests {
    /// The daemon's upload limit in these tests.
    static let limit = 1 << 20

    /// A daemon with a 1 MiB upload limit, the project `app`, and a reader's token.
    static func daemon() throws -> (TestDaemon, reader: String) {
        let daemon = try TestDaemon(arguments: ["--max-upload", String(limit)])
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let created = try daemon.barkeep(["token", "create", "viewer", "--role", "reader"])
        #expect(created.0 == 0, "\(created.2)")
        return (daemon, created.1.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A file in a new temporary directory of `size` bytes, none of them on disk (a hole): what reading it would
    /// cost is memory, never disk.
    static func sparseFile(size: Int) throws -> String {
        let path = try TemporaryDirectory.make(prefix: "barkeep-scanfile") + "/scan.json"
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(ftruncate(descriptor, off_t(size)) == 0)
        return path
    }

    /// A valid duo_scan report of one finding, padded with white space to `size` bytes.
    static func paddedScan(size: Int) throws -> String {
        let head =
            #"{"tool":"duo_scan","version":"1.2.2","findings":[{"rule":"DUO007","severity":"medium","file":"#
            + #""Sources/Bar.swift","line":3,"snippet":"let bar = UIToolbar()"}]"#
        let path = try TemporaryDirectory.make(prefix: "barkeep-scanfile") + "/scan.json"
        let text = head + String(repeating: " ", count: size - head.utf8.count - 1) + "}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `barkeep ingest app ARGUMENTS` within `seconds`: exit status and standard error.
    static func ingest(
        _ daemon: TestDaemon, _ arguments: [String], token: String? = nil, seconds: Int64 = 20
    ) throws -> (Int32, String) {
        let result = try Subprocess.run(
            BuildProducts.path("barkeep"), ["ingest", "app"] + arguments,
            environment: daemon.environment(token: token, tcp: token != nil), timeout: .seconds(seconds))
        return (result.status, result.error)
    }

    @Test("/dev/zero, a FIFO and a directory are refused at once, without asking the daemon")
    func notRegularFiles() throws {
        let (daemon, reader) = try Self.daemon()
        let fifo = try TemporaryDirectory.make(prefix: "barkeep-scanfile") + "/scan.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Before the fix, /dev/zero was read until the process aborted and the FIFO waited for a writer forever.
        let cases = [
            ("/dev/zero", "cannot read /dev/zero: not a regular file but a character device"),
            (fifo, "cannot read \(fifo): not a regular file but a FIFO"),
            ("/tmp", "cannot read /tmp: Is a directory"),
        ]
        for (path, message) in cases {
            for token in [nil, reader] {
                let (status, error) = try Self.ingest(daemon, [path], token: token, seconds: 10)
                #expect(status == 1 && error == "barkeep: \(message)\n", "\(path): \(error)")
            }
        }
        // No daemon at all: still refused, so the check needs no connection.
        let unreachable = try Subprocess.run(
            BuildProducts.path("barkeep"), ["ingest", "app", "/dev/zero"],
            environment: ["BARKEEP_SERVER": "127.0.0.1:1", "PATH": "/usr/bin:/bin"], timeout: .seconds(10))
        #expect(unreachable.status == 1 && unreachable.error.contains("not a regular file"), "\(unreachable.error)")
        #expect(try daemon.barkeep(["runs", "app"]).1.contains("No runs"))
    }

    @Test("a reader's token is refused before the file is read, even an 8 GiB one")
    func readerRefusedBeforeReading() throws {
        let (daemon, reader) = try Self.daemon()
        // Read whole, as before the fix, this file would take 8 GiB of memory: the refusal comes first.
        let huge = try Self.sparseFile(size: 8 << 30)
        for arguments in [[huge], [huge, "--max-upload", "16GiB"]] {
            let (status, error) = try Self.ingest(daemon, arguments, token: reader)
            #expect(status == 1, "\(error)")
            #expect(
                error == "barkeep: INGEST needs the writer role (this token is a reader's): the file was not read "
                    + "(FORBIDDEN)\n")
        }
    }

    @Test("a file over the daemon's limit is refused before it is read; --max-upload lowers the limit")
    func sizeLimit() throws {
        let (daemon, _) = try Self.daemon()
        let huge = try Self.sparseFile(size: 8 << 30)
        let (status, error) = try Self.ingest(daemon, [huge])
        #expect(status == 1)
        #expect(
            error == "barkeep: \(huge) is 8192 MiB (8589934592 bytes), more than the upload limit of 1.0 MiB "
                + "(1048576 bytes) (TOOLONG)\n")
        let scan = try Self.paddedScan(size: 600 << 10)
        let lowered = try Self.ingest(daemon, [scan, "--max-upload", "512KiB"])
        #expect(lowered.0 == 1 && lowered.1.contains("more than the upload limit of 0.5 MiB (524288 bytes)"))
        // A larger --max-upload does not raise the daemon's limit.
        let larger = try Self.ingest(daemon, [huge, "--max-upload", "16GiB"])
        #expect(larger.0 == 1 && larger.1.contains("upload limit of 1.0 MiB"), "\(larger.1)")
        #expect(try daemon.barkeep(["runs", "app"]).1.contains("No runs"))
        let accepted = try daemon.barkeep(["ingest", "app", scan])
        #expect(accepted.0 == 0 && accepted.1.hasPrefix("Run 1: 1 new"), "\(accepted)")
        let usage = try daemon.barkeep(["ingest", "app", scan, "--max-upload", "lots"])
        #expect(usage.0 == 64 && usage.2.contains("--max-upload must be a size in bytes"))
    }

    @Test("standard input is read no further than the limit; HELLO says the limit")
    func standardInput() throws {
        let (daemon, _) = try Self.daemon()
        var environment = daemon.environment()
        environment["BARKEEP"] = BuildProducts.path("barkeep")
        let result = try Subprocess.run(
            "/bin/sh", ["-c", "head -c 3145728 /dev/zero | \"$BARKEEP\" ingest app -"], environment: environment,
            timeout: .seconds(20))
        #expect(result.status == 1)
        #expect(
            result.error
                == "barkeep: standard input holds more than the upload limit of 1.0 MiB (1048576 bytes) (TOOLONG)\n")
        let client = try LineClient(socketPath: daemon.socket)
        let hello = try #require(try client.request("HELLO protocol=3"))
        #expect(hello.hasPrefix("OK protocol=3 ") && hello.hasSuffix(" role=admin max-upload=1048576"), "\(hello)")
    }
}
