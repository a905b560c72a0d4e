import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// TLS end to end: barkeepd with `--tls-cert`/`--tls-key` and certificates made by `openssl` at test time, the CLI
/// with `--tls`/`--ca`, and the rule that a token never crosses TCP in clear text.
@Suite("TLS end to end")
struct TLSTests {
    private let barkeep = BuildProducts.path("barkeep")
    private let barkeepd = BuildProducts.path("barkeepd")

    /// A daemon whose TCP listener requires TLS with a certificate for 127.0.0.1 and localhost, and its CA.
    private func tlsDaemon() throws -> (TestDaemon, TestCertificates) {
        let certificates = try TestCertificates.make()
        let daemon = try TestDaemon(arguments: [
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        return (daemon, certificates)
    }

    /// The environment of a CLI run: none of the caller's Barkeep or OpenSSL settings, no colour, plus `extra`.
    private func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("BARKEEP_") && !$0.key.hasPrefix("SSL_CERT_")
        }
        environment["NO_COLOR"] = "1"
        return environment.merging(extra) { $1 }
    }

    /// Runs `barkeep arguments`; never longer than 30 s.
    private func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> (Int32, String, String) {
        let result = try Subprocess.run(barkeep, arguments, environment: environment(extra), timeout: .seconds(30))
        return (result.status, result.output, result.error)
    }

    /// Creates a token through the daemon's Unix socket (plain text, as its owner).
    private func makeToken(_ daemon: TestDaemon, role: String = "admin") throws -> String {
        let name = "tls-\(UInt32.random(in: 0...UInt32.max))"
        let created = try daemon.barkeep(["token", "create", name, "--role", role])
        return try #require(created.1.split(separator: "\n").first.map(String.init))
    }

    private func waitFor(_ timeout: Duration = .seconds(20), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test("--ca verifies the daemon's certificate by address and by name; the token works; the Unix socket stays plain")
    func trustedConnection() throws {
        let (daemon, certificates) = try tlsDaemon()
        #expect(daemon.process.errorOutput.contains("msg=\"TLS required on TCP\""))
        let token = try makeToken(daemon)
        let address = "127.0.0.1:\(daemon.port)"

        let listed = try run(["--server", address, "--ca", certificates.caFile, "--token", token, "project", "list"])
        #expect(listed == (0, "No projects yet. Create one with: barkeep project create NAME\n", ""))
        let created = try run(
            ["--server", "localhost:\(daemon.port)", "--ca", certificates.caFile, "project", "create", "app"],
            ["BARKEEP_TOKEN": token]
        )
        #expect(created.0 == 0 && created.1.hasPrefix("Created project app"))
        // The environment's names for the same options; --tls trusting the system's CAs (OpenSSL reads
        // SSL_CERT_FILE as the system's store).
        let fromEnvironment = try run(
            ["project", "list"],
            ["BARKEEP_SERVER": address, "BARKEEP_CA": certificates.caFile, "BARKEEP_TOKEN": token]
        )
        #expect(fromEnvironment.0 == 0 && fromEnvironment.1.contains("app"))
        let systemStore = try run(
            ["--server", address, "--tls", "ping"], ["SSL_CERT_FILE": certificates.caFile])
        #expect(systemStore == (0, "PONG\n", ""))
        #expect(
            try run(["--server", address, "ping"], ["BARKEEP_TLS": "1", "SSL_CERT_FILE": certificates.caFile])
                == (0, "PONG\n", ""))

        // The Unix socket speaks plain text, and ignores --tls.
        #expect(try daemon.barkeep(["project", "list"]).1.contains("app"))
        #expect(try daemon.barkeep(["--tls", "ping"]) == (0, "PONG\n", ""))
        #expect(try LineClient(socketPath: daemon.socket).request("PING") == "OK PONG")
    }

    @Test("an untrusted certificate is refused before the token is sent: system CAs, another CA, another name")
    func untrustedCertificates() throws {
        let (daemon, certificates) = try tlsDaemon()
        let token = try makeToken(daemon)
        let address = "127.0.0.1:\(daemon.port)"
        let prefix = "barkeep: the server's certificate is not trusted: "

        let systemCAs = try run(["--server", address, "--tls", "--token", token, "ping"])
        #expect(systemCAs.0 == 1 && systemCAs.1.isEmpty)
        #expect(systemCAs.2.hasPrefix(prefix) && systemCAs.2.contains("pass --ca FILE"), "\(systemCAs.2)")

        let otherCA = try certificates.makeOtherCA()
        let wrongCA = try run(["--server", address, "--ca", otherCA, "--token", token, "project", "list"])
        #expect(wrongCA.0 == 1 && wrongCA.2.hasPrefix(prefix) && wrongCA.2.contains(otherCA), "\(wrongCA.2)")
        #expect(!wrongCA.2.contains(token))

        let missing = try run(["--server", address, "--ca", certificates.directory + "/missing.pem", "ping"])
        #expect(
            missing
                == (
                    1, "",
                    "barkeep: --ca: cannot read the CA file \(certificates.directory)/missing.pem: No such file or "
                        + "directory\n"
                ))

        // A certificate signed by the right CA for another name: refused by address and by name.
        let (elsewhere, key) = try certificates.makeServerCertificate(names: "DNS:barkeep.invalid", name: "elsewhere")
        let second = try TestDaemon(url: daemon.url, arguments: ["--tls-cert", elsewhere, "--tls-key", key])
        let byAddress = try run(["--server", "127.0.0.1:\(second.port)", "--ca", certificates.caFile, "ping"])
        #expect(byAddress.0 == 1)
        #expect(byAddress.2.hasPrefix(prefix + "IP address mismatch: it is not issued for 127.0.0.1"), "\(byAddress.2)")
        let byName = try run(["--server", "localhost:\(second.port)", "--ca", certificates.caFile, "ping"])
        #expect(byName.0 == 1)
        #expect(byName.2.hasPrefix(prefix + "hostname mismatch: it is not issued for localhost"), "\(byName.2)")

        // No refused client got as far as authenticating.
        #expect(!daemon.process.errorOutput.contains("authentication"))
        #expect(try run(["--server", address, "--ca", certificates.caFile, "ping"]) == (0, "PONG\n", ""))
    }

    @Test("plain text to the TLS port is closed without a reply and never logged; the daemon keeps serving")
    func plainTextClient() throws {
        let (daemon, certificates) = try tlsDaemon()
        let raw = try LineClient(port: daemon.port)
        try raw.send("HELLO token=bk_plaintextsecret\n")
        #expect(try raw.readLine() == nil)

        // The CLI without --tls (allowed plain text to loopback) learns nothing but a hint, and neither does the log.
        for arguments in [["ping"], ["--token", "bk_plaintextsecret", "project", "list"]] {
            let plainCLI = try run(["--server", "127.0.0.1:\(daemon.port)"] + arguments)
            #expect(plainCLI.0 == 1 && plainCLI.1.isEmpty)
            #expect(
                plainCLI.2.contains("the server closed the connection (if it requires TLS, pass --tls or --ca FILE)"),
                "\(plainCLI.2)")
        }

        #expect(try run(["--server", "127.0.0.1:\(daemon.port)", "--ca", certificates.caFile, "ping"]).1 == "PONG\n")

        // The other way round: TLS to a port that speaks plain text.
        let plainDaemon = try TestDaemon(url: daemon.url)
        let tlsToPlain = try run(["--server", "127.0.0.1:\(plainDaemon.port)", "--ca", certificates.caFile, "ping"])
        #expect(
            tlsToPlain
                == (
                    1, "",
                    "barkeep: TLS with barkeepd at 127.0.0.1:\(plainDaemon.port) failed: wrong version number (does it "
                        + "serve TLS on this port?)\n"
                ))

        let log = daemon.process.errorOutput
        #expect(log.contains("msg=\"TLS handshake failed\" component=server peer=127.0.0.1:"))
        #expect(log.contains("error=\"wrong version number\""))
        #expect(!log.contains("plaintextsecret"))
    }

    @Test("pipelined requests and a large reply cross TLS whole, in order")
    func pipelinedAndLarge() throws {
        let (daemon, certificates) = try tlsDaemon()
        let token = try makeToken(daemon)
        let address = "127.0.0.1:\(daemon.port)"

        // OpenSSL's own client sends 20 000 pipelined PINGs in a few writes, then QUIT.
        let directory = try TemporaryDirectory.make(prefix: "barkeep-tls-pipeline")
        let count = 20_000
        try (String(repeating: "PING\n", count: count) + "QUIT\n")
            .write(toFile: directory + "/requests", atomically: true, encoding: .utf8)
        let client = try Subprocess.run(
            "/bin/sh",
            [
                "-c", "exec openssl s_client -connect \"$0\" -CAfile \"$1\" -verify_return_error -quiet < \"$2\"",
                address, certificates.caFile, directory + "/requests",
            ],
            timeout: .seconds(60)
        )
        let replies = client.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(client.status == 0, "\(client.error)")
        #expect(replies.count == count + 2 && replies.last == "")
        #expect(replies.prefix(count).allSatisfy { $0 == "OK PONG" })
        #expect(replies.dropFirst(count).first == "OK BYE")

        // A 5 000-finding scan up (about 640 KB) and the findings back (about 1.3 MB), the same as on the socket.
        var scan = #"{"tool":"duo_scan","version":"1.2.2","source_files_scanned":1,"findings":["#
        for index in 0..<5000 {
            if index > 0 { scan += "," }
            scan += #"{"rule":"DUO001","severity":"high","file":"Sources/F\#(index / 50).swift","#
            scan += #""line":\#(index % 50 + 1),"snippet":"let s\#(index) = UIScreen.main.bounds"}"#
        }
        scan += "]}"
        try scan.write(toFile: directory + "/scan.json", atomically: true, encoding: .utf8)
        let tls = ["BARKEEP_SERVER": address, "BARKEEP_CA": certificates.caFile, "BARKEEP_TOKEN": token]
        #expect(try run(["project", "create", "app"], tls).0 == 0)
        let ingested = try run(["ingest", "app", directory + "/scan.json"], tls)
        #expect(ingested.1.hasPrefix("Run 1: 5000 new"), "\(ingested.2)")
        let overTLS = try run(["--json", "findings", "app"], tls)
        let overSocket = try daemon.barkeep(["--json", "findings", "app"])
        #expect(overTLS.0 == 0 && overTLS.1.utf8.count > 1_000_000)
        #expect(overTLS.1 == overSocket.1)
    }

    @Test("watch over TLS replays the history and receives a live event")
    func watchOverTLS() throws {
        let (daemon, certificates) = try tlsDaemon()
        let token = try makeToken(daemon)
        _ = try daemon.barkeep(["project", "create", "app"])
        let watcher = try Subprocess.spawn(
            barkeep,
            ["--json", "watch", "app", "--since", "0"],
            environment: environment([
                "BARKEEP_SERVER": "127.0.0.1:\(daemon.port)", "BARKEEP_CA": certificates.caFile,
                "BARKEEP_TOKEN": token,
            ])
        )
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }
        #expect(waitFor { watcher.output.contains("\"kind\":\"project.created\"") }, "\(watcher.errorOutput)")
        _ = try daemon.barkeep(["project", "set", "app", "--sdk", "27.1"])
        #expect(waitFor { watcher.output.contains("\"kind\":\"project.updated\"") }, "\(watcher.errorOutput)")
        #expect(watcher.output.contains("\"to\":\"27.1\""))
    }

    @Test(
        "a token goes over plain TCP only to this machine",
        arguments: [
            ("192.0.2.1:7780", false), ("10.0.0.1:7780", false), ("[2001:db8::1]:7780", false),
            ("[::ffff:192.0.2.1]:7780", false), ("barkeep.invalid:7780", false), ("127.0.0.2:1", true),
            ("localhost:1", true), ("[::1]:1", true), ("[::ffff:127.0.0.1]:1", true), (":1", true),
        ]
    )
    func tokenOnlyToLoopback(server: String, isAllowed: Bool) throws {
        // Port 1 of this machine refuses at once; the others are refused before any connection is tried.
        let result = try run(["--server", server, "--token", "bk_secret", "ping"])
        #expect(result.0 == 1)
        if isAllowed {
            #expect(result.2.hasPrefix("barkeep: cannot reach barkeepd at "), "\(result.2)")
        } else {
            #expect(
                result.2
                    == "barkeep: refusing to send the token to \(server) in clear text: connect with TLS (--tls, or "
                    + "--ca FILE for a private CA), or reach the daemon through a loopback address or its Unix "
                    + "socket\n")
        }
        #expect(!result.2.contains("bk_secret"))
    }

    @Test("BARKEEP_TLS must read as true or false")
    func tlsVariable() throws {
        let result = try run(["ping"], ["BARKEEP_TLS": "maybe"])
        #expect(result.0 == 64 && result.2.hasPrefix("barkeep: BARKEEP_TLS must be 1 or 0, not 'maybe'\n"))
    }

    @Test("barkeepd refuses TLS files it cannot use, before it starts anything: exit 64 with the reason")
    func unusableFiles() throws {
        let certificates = try TestCertificates.make()
        let otherCA = try certificates.makeOtherCA()
        let directory = try TemporaryDirectory.make(prefix: "barkeep-tls-start")
        let cases: [([String], String)] = [
            (["--tls-cert", certificates.certificateFile], "--tls-cert needs --tls-key"),
            (["--tls-key", certificates.keyFile], "--tls-key needs --tls-cert"),
            (
                ["--tls-cert", directory + "/missing.pem", "--tls-key", certificates.keyFile],
                "--tls-cert/--tls-key: cannot read the certificate \(directory)/missing.pem: No such file or directory"
            ),
            (
                [
                    "--tls-cert", certificates.certificateFile, "--tls-key",
                    otherCA.replacingOccurrences(
                        of: ".pem", with: ".key"),
                ],
                "does not match the certificate"
            ),
            (["--tls-cert", otherCA, "--tls-key", certificates.keyFile], "does not match the certificate"),
        ]
        for (arguments, message) in cases {
            let result = try Subprocess.run(
                barkeepd, ["--data-dir", directory + "/data", "--listen", "127.0.0.1:0"] + arguments,
                timeout: .seconds(30))
            #expect(result.status == 64 && result.error.hasPrefix("barkeepd: ") && result.error.contains(message))
        }
        // Nothing started: not even the data directory.
        #expect(!FileManager.default.fileExists(atPath: directory + "/data"))
    }
}
