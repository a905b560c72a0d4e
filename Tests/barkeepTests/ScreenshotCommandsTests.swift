import BarkeepHashing
import BarkeepTestSupport
import Foundation
import Testing

/// End-to-end, with the built daemon and CLI: SCREENSHOT PUT on the wire (idempotent, the header checked, the size
/// refused before any byte against `--max-screenshot`), POSE RECORD naming an upload, and `barkeep pose record
/// --screenshot FILE` uploading the file and recording the pose with its hash.
@Suite("screenshots: SCREENSHOT PUT, POSE RECORD screenshot=sha256:, pose record --screenshot")
struct ScreenshotCommandsTests {
    /// The reply line ending a request, records before it skipped.
    static func reply(_ client: LineClient) throws -> String? {
        while let line = try client.readLine() {
            if line.hasPrefix("OK") || line.hasPrefix("ERR") { return line }
        }
        return nil
    }

    /// A daemon whose project `app` has a screen Inbox with P3 failed, recorded by the CLI with `image` (written
    /// to a file `named`) as its screenshot; and that file.
    static func failedPose(_ image: [UInt8], named: String) throws -> (daemon: TestDaemon, file: String) {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        _ = try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/**"])
        let file = try SampleImages.temporaryFile(image, named: named)
        let recorded = try daemon.barkeep([
            "pose", "record", "app", "Inbox", "P3", "failed", "--screenshot", file, "--item", "Bar overlaps",
        ])
        #expect(recorded.0 == 0, "\(recorded)")
        return (daemon, file)
    }

    @Test("on the wire: stored once by hash with its header, garbage refused, a size past the limit refused unread")
    func wire() throws {
        let daemon = try TestDaemon(arguments: ["--max-screenshot", "2048"])
        let client = try LineClient(socketPath: daemon.socket)
        try client.send("PROJECT CREATE app\n")
        #expect(try Self.reply(client) == "OK count=1")
        _ = try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/**"])
        let hex = SHA256Digest.hex(of: SampleImages.png)
        try client.send("SCREENSHOT PUT app \(SampleImages.png.count)\n")
        try client.send(SampleImages.png)
        #expect(try Self.reply(client) == "OK sha256=\(hex) width=3 height=2 media-type=image/png new=yes")
        try client.send("SCREENSHOT PUT app \(SampleImages.png.count)\n")
        try client.send(SampleImages.png)
        #expect(try Self.reply(client) == "OK sha256=\(hex) width=3 height=2 media-type=image/png new=no")
        let jpeg = SHA256Digest.hex(of: SampleImages.jpeg)
        try client.send("SCREENSHOT PUT app \(SampleImages.jpeg.count)\n")
        try client.send(SampleImages.jpeg)
        #expect(try Self.reply(client) == "OK sha256=\(jpeg) width=3 height=2 media-type=image/jpeg new=yes")

        // Not an image: refused with why; the connection stays in step.
        try client.send("SCREENSHOT PUT app 5\nhello")
        #expect(try Self.reply(client) == "ERR BADARG a screenshot must be a PNG or JPEG image")
        // Past --max-screenshot: refused from the announced size, the bytes skipped; the connection stays in step.
        try client.send("SCREENSHOT PUT app 4096\n")
        #expect(try Self.reply(client) == "ERR TOOLONG screenshot of 4096 bytes is over the limit of 2048")
        try client.send([UInt8](repeating: 0x89, count: 4096))
        try client.send("PING\n")
        #expect(try Self.reply(client) == "OK PONG")
        try client.send("SCREENSHOT PUT nope \(SampleImages.png.count)\n")
        try client.send(SampleImages.png)
        #expect(try Self.reply(client)?.hasPrefix("ERR NOTFOUND") == true)

        // A pose names an upload by its hash; an unknown hash is NOTFOUND and records nothing.
        let unknown = String(repeating: "0", count: 64)
        try client.send("POSE RECORD app Inbox P3 failed screenshot=sha256:\(unknown) item=Overlap\n")
        #expect(
            try Self.reply(client)
                == "ERR NOTFOUND no screenshot sha256:\(unknown) is stored: upload it first (SCREENSHOT PUT)")
        try client.send("POSE RECORD app Inbox P3 failed screenshot=sha256:\(hex) item=Overlap\n")
        #expect(try Self.reply(client) == "OK count=1")
        // A path from before uploads is still taken as text.
        try client.send("POSE RECORD app Inbox P4 failed screenshot=shots/p4.png item=Clipped\n")
        #expect(try Self.reply(client) == "OK count=1")
        let history = try daemon.barkeep(["--json", "pose", "history", "app", "Inbox"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(history.1.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["screenshot"] as? String } == ["sha256:\(hex)", "shots/p4.png"])
    }

    @Test(
        "barkeep pose record --screenshot FILE uploads it and records the pose with its hash; a bad file sends nothing")
    func cli() throws {
        let (daemon, file) = try Self.failedPose(SampleImages.jpeg, named: "inbox p3.jpg")
        let hex = SHA256Digest.hex(of: SampleImages.jpeg)
        let history = try daemon.barkeep(["pose", "history", "app", "Inbox"])
        #expect(history.1.contains("sha256:\(hex)"), "\(history)")
        let screen = try daemon.barkeep(["screen", "show", "app", "Inbox"])
        #expect(screen.1.contains("sha256:\(hex)"), "\(screen)")

        // Missing, a directory, not an image: usage errors (64), before anything is sent.
        let text = try SampleImages.temporaryFile(Array("not an image".utf8), named: "notes.png")
        let refusals = [
            (file + ".missing", "--screenshot: cannot read \(file).missing: No such file or directory"),
            (
                URL(fileURLWithPath: file).deletingLastPathComponent().path,
                "--screenshot: cannot read \(URL(fileURLWithPath: file).deletingLastPathComponent().path): Is a directory"
            ),
            (text, "--screenshot: \(text) is not a screenshot: a screenshot must be a PNG or JPEG image"),
        ]
        for (path, message) in refusals {
            let refused = try daemon.barkeep([
                "pose", "record", "app", "Inbox", "P4", "failed", "--screenshot", path, "--item", "Clipped",
            ])
            #expect(refused.0 == 64, "\(refused)")
            #expect(refused.2.hasPrefix("barkeep: " + message), "\(refused.2)")
        }
        let after = try daemon.barkeep(["--json", "pose", "history", "app", "Inbox"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(after.1.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
    }

    @Test("SCREENSHOT GET answers the bytes in base64; the HTML report embeds a failed pose's, the Markdown names it")
    func fetchAndReport() throws {
        let daemon = try Self.failedPose(SampleImages.png, named: "inbox p3.png").daemon
        let hex = SHA256Digest.hex(of: SampleImages.png)
        let base64 = Data(SampleImages.png).base64EncodedString()

        let client = try LineClient(socketPath: daemon.socket)
        try client.send("SCREENSHOT GET sha256:\(hex)\n")
        #expect(
            try Self.reply(client)
                == "OK sha256=\(hex) media-type=image/png width=3 height=2 size=\(SampleImages.png.count) data=\(base64)"
        )
        try client.send("SCREENSHOT GET \(hex)\n")
        #expect(try Self.reply(client)?.hasPrefix("ERR BADARG") == true)
        try client.send("SCREENSHOT GET sha256:\(String(repeating: "0", count: 64))\n")
        #expect(try Self.reply(client)?.hasPrefix("ERR NOTFOUND") == true)

        let html = try daemon.barkeep(["report", "app", "--format", "html"])
        #expect(html.0 == 0, "\(html)")
        #expect(html.1.contains("src=\"data:image/png;base64,\(base64)\" width=\"3\" height=\"2\""))
        #expect(html.1.contains("<code>sha256:\(hex)</code>"))
        #expect(!html.1.contains("not embedded"))
        let markdown = try daemon.barkeep(["report", "app"])
        #expect(markdown.1.contains("sha256:\(hex)") && !markdown.1.contains("base64"))
    }
}
