import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end: what one upload costs the daemon in memory, a stalled upload, and the bound on the bytes all uploads
/// hold together.
@Suite("uploads: bounded memory, stalls, the total")
struct UploadLimitsTests {
    /// A duo_scan report of `count` tiny findings whose last one is `last`.
    static func report(findings count: Int, last: String) -> [UInt8] {
        var bytes = Array(#"{"tool":"duo_scan","findings":["#.utf8)
        bytes.reserveCapacity(count * 64 + 64)
        for index in 0..<count - 1 {
            bytes += Array(#"{"rule":"D1","severity":"low","file":"a","line":\#(index % 9 + 1),"snippet":""},"#.utf8)
        }
        bytes += Array((last + "]}").utf8)
        return bytes
    }

    /// A SARIF log of one run with `count` tiny results whose last one is `last`.
    static func sarifLog(results count: Int, last: String) -> [UInt8] {
        var bytes = Array(#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"lint"}},"results":["#.utf8)
        bytes.reserveCapacity(count * 48 + 128)
        for index in 0..<count - 1 {
            bytes += Array(#"{"ruleId":"R\#(index % 9)","message":{"text":"m"}},"#.utf8)
        }
        bytes += Array((last + "]}]}").utf8)
        return bytes
    }

    /// A duo_scan report shaped like the scanner's own (every field; a rule's title, source and advice on each
    /// finding; indented as duo_scan writes it) of `count` findings, 40 to a file: about 670 bytes a finding.
    static func realShapedReport(findings count: Int) -> [UInt8] {
        let rules = [
            ("DUO001", "high", "Main screen reference", "let s = UIScreen.main.scale"),
            (
                "DUO003", "medium", "Fixed navigation bar placement",
                "navigationController?.navigationBar.isHidden = false"
            ),
            (
                "DUO007", "critical", "Toolbar pinned to the bottom edge",
                "toolbar.bottomAnchor.constraint(equalTo: bottom)"
            ),
            ("DUO013", "low", "Tab bar assumes one display", "tabBar.frame.size.height = 49"),
        ]
        let advice =
            "The main screen is ambiguous on a two-display device and deprecated. Use the trait collection of the "
            + "view's window scene, and let the system place bars on the side the device reports."
        var lines = [#"{"#, #"  "tool": "duo_scan","#, #"  "version": "1.2.2","#, #"  "findings": ["#]
        for index in 0..<count {
            let (rule, severity, title, snippet) = rules[index % rules.count]
            let file = "App/Features/Feature\(index / 1000)/Screen\(index / 40)ViewController.swift"
            let line = 20 + (index % 40) * 7
            lines += [
                #"    {"#, #"      "id": "\#(rule):\#(file):\#(line)","#, #"      "rule": "\#(rule)","#,
                #"      "title": "\#(title)","#, #"      "severity": "\#(severity)","#,
                #"      "skill": "iphone-duo-adaptivity-audit","#, #"      "file": "\#(file)","#,
                #"      "line": \#(line),"#, #"      "snippet": "\#(snippet) // item \#(index % 40)","#,
                #"      "source": "Tech Talk 111461 Prepare your app for iPhone Duo 3:57","#,
                #"      "advice": "\#(advice)""#, index == count - 1 ? #"    }"# : #"    },"#,
            ]
        }
        lines += [#"  ]"#, #"}"#]
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// A field of /proc/PID/status in kB (`VmHWM`, `VmRSS`).
    static func memory(_ field: String, of pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw TestSupportError("no \(field) in /proc/\(pid)/status") }
        return kilobytes
    }

    /// The reply line ending a request (records before it skipped), waiting up to `timeout`.
    static func reply(_ client: LineClient, within timeout: Duration) throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            // The client's reads time out every 10 s (a throw): a long parse takes several. nil: closed.
            let line: String?
            do {
                line = try client.readLine()
            } catch {
                continue
            }
            guard let line else { return nil }
            if line.hasPrefix("OK") || line.hasPrefix("ERR") { return line }
        }
        return nil
    }

    static func createProject(_ client: LineClient) throws {
        try client.send("PROJECT CREATE app sdk=27.0 deployment-target=26.0\n")
        #expect(try reply(client, within: .seconds(30)) == "OK count=1")
    }

    @Test("a 60 MiB upload of a million findings refused at its end: peak RSS grows by less than twice its size")
    func refusedUploadsStayBounded() throws {
        let daemon = try TestDaemon()
        let client = try LineClient(socketPath: daemon.socket)
        try Self.createProject(client)
        let variants = [
            (
                #"{"rule":"D1","severity":"low","file":"a","line":0,"snippet":""}"#,
                "findings[999999].line: expected a positive integer"
            ),
            (
                #"{"rule":"D1","severity":"low","file":"a","line":1,"snippet":"","snippet":""}"#,
                "findings[999999].snippet: duplicate key"
            ),
            (#"{"rule":"D1","severity":"low","file":"a","line":1,"snippet":"}"#, "not valid JSON ("),
        ]
        for (last, problem) in variants {
            try Self.expectBoundedRefusal(
                of: Self.report(findings: 1_000_000, last: last), format: "duo-scan", problem: problem, daemon: daemon,
                client: client)
        }
    }

    @Test("a SARIF log of a million results refused at its end: peak RSS grows by less than twice its size")
    func refusedSARIFStaysBounded() throws {
        let daemon = try TestDaemon()
        let client = try LineClient(socketPath: daemon.socket)
        try Self.createProject(client)
        // Refused by the second pass, after the whole document was checked: the costlier refusal (a duplicate key
        // is refused by the first pass; SARIFParserTests check it).
        let variants = [(#"{"ruleId":"R1","level":7}"#, "runs[0].results[999999].level: expected a string")]
        for (last, problem) in variants {
            try Self.expectBoundedRefusal(
                of: Self.sarifLog(results: 1_000_000, last: last), format: "sarif", problem: problem, daemon: daemon,
                client: client)
        }
    }

    @Test("a 60 MiB valid upload of a million tiny findings: peak RSS grows by less than twice its size")
    func validUploadStaysBounded() throws {
        let daemon = try TestDaemon()
        let client = try LineClient(socketPath: daemon.socket)
        try Self.createProject(client)
        let upload = Self.report(
            findings: 1_000_000, last: #"{"rule":"D1","severity":"low","file":"a","line":1,"snippet":""}"#)
        try "5".write(toFile: "/proc/\(daemon.process.pid)/clear_refs", atomically: false, encoding: .utf8)
        let before = try Self.memory("VmRSS", of: daemon.process.pid)
        try client.send(Array("INGEST app format=duo-scan \(upload.count)\n".utf8) + upload)
        let answer = try Self.reply(client, within: .seconds(600))
        #expect(answer?.hasPrefix("OK") == true, "\(answer ?? "")")
        let growth = (try Self.memory("VmHWM", of: daemon.process.pid) - before) * 1024
        #expect(growth < 2 * upload.count, "grew \(growth) for \(upload.count)")
    }

    @Test("20 uploads of one scan: the daemon ends within 1.2x of its resident size after the first")
    func repeatedUploadsGiveMemoryBack() throws {
        let daemon = try TestDaemon()
        let client = try LineClient(socketPath: daemon.socket)
        try Self.createProject(client)
        let scan = Self.realShapedReport(findings: 5000)
        var afterFirst = 0
        for upload in 1...20 {
            // The same scan each time; a different number of trailing blanks makes it new bytes, so each upload is
            // a whole sync (everything unchanged), not a repeat that changes nothing.
            let bytes = scan + Array(repeating: UInt8(ascii: " "), count: upload)
            try client.send(Array("INGEST app format=duo-scan \(bytes.count)\n".utf8) + bytes)
            let answer = try Self.reply(client, within: .seconds(120))
            #expect(answer?.hasPrefix("OK run=\(upload) ") == true, "\(answer ?? "")")
            if upload == 1 { afterFirst = try Self.memory("VmRSS", of: daemon.process.pid) }
        }
        let afterLast = try Self.memory("VmRSS", of: daemon.process.pid)
        #expect(
            Double(afterLast) <= 1.2 * Double(afterFirst),
            "resident \(afterFirst) kB after the first upload, \(afterLast) kB after the 20th of \(scan.count) bytes")
    }

    /// Uploads `upload` in `format`, expects it refused for `problem`, and the daemon's peak resident memory meanwhile
    /// to have grown by less than twice the upload.
    static func expectBoundedRefusal(
        of upload: [UInt8],
        format: String,
        problem: String,
        daemon: TestDaemon,
        client: LineClient
    ) throws {
        // Writing 5 to clear_refs resets the peak (VmHWM) to the current resident size.
        try "5".write(toFile: "/proc/\(daemon.process.pid)/clear_refs", atomically: false, encoding: .utf8)
        let before = try memory("VmRSS", of: daemon.process.pid)
        try client.send(Array("INGEST app format=\(format) \(upload.count)\n".utf8) + upload)
        let answer = try reply(client, within: .seconds(600))
        #expect(
            answer?.hasPrefix("ERR BADARG the \(format) upload is not valid: \(problem)") == true, "\(answer ?? "")")
        let growth = (try memory("VmHWM", of: daemon.process.pid) - before) * 1024
        #expect(growth < 2 * upload.count, "\(problem): grew \(growth) for \(upload.count)")
    }

    @Test("an upload that sends nothing for --upload-timeout is refused and its connection closed")
    func stalledUpload() throws {
        let daemon = try TestDaemon(arguments: ["--upload-timeout", "2"])
        let client = try LineClient(socketPath: daemon.socket)
        try Self.createProject(client)
        try client.send("INGEST app format=duo-scan 1000\n{\"tool\":")
        #expect(try Self.reply(client, within: .seconds(30)) == "ERR BADARG the upload stalled: no bytes for 2 s")
        #expect(client.isClosedByServer())
        // The daemon serves on.
        let other = try LineClient(socketPath: daemon.socket)
        #expect(try other.request("PING") == "OK PONG")
    }

    @Test("uploads past --max-upload-total together are refused BUSY until the others finish")
    func uploadTotal() throws {
        let daemon = try TestDaemon(arguments: ["--max-upload", "4096", "--max-upload-total", "6000"])
        let first = try LineClient(socketPath: daemon.socket)
        try Self.createProject(first)
        let upload = Array(repeating: UInt8(ascii: " "), count: 4000)
        try first.send(Array("INGEST app format=duo-scan 4000\n".utf8) + upload.prefix(10))

        let second = try LineClient(socketPath: daemon.socket)
        // Once the first upload is announced, 4000 more bytes would pass 6000.
        try second.send(Array("INGEST app format=duo-scan 4000\n".utf8) + upload)
        #expect(try Self.reply(second, within: .seconds(30)) == "ERR BUSY too many uploads in progress; retry later")
        #expect(try second.request("PING") == "OK PONG")

        try first.send(Array(upload.dropFirst(10)))
        let refused = try Self.reply(first, within: .seconds(30))
        #expect(refused?.hasPrefix("ERR BADARG the duo-scan upload is not valid: not valid JSON (") == true)
        try second.send(Array("INGEST app format=duo-scan 4000\n".utf8) + upload)
        let accepted = try Self.reply(second, within: .seconds(30))
        #expect(accepted?.hasPrefix("ERR BADARG the duo-scan upload is not valid") == true)
    }
}
