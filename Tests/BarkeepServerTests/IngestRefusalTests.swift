import BarkeepTestSupport
import Testing

@testable import BarkeepServer

/// INGEST, now decoded from its spec (BarkeepAPI's IngestUploadRequest), refuses bad keys with the words the daemon
/// has always used, after reading the upload: each refusal whole, over a real daemon.
@Suite("INGEST refusals keep their words")
struct IngestRefusalTests {
    /// The keys of a request (after `INGEST app`) and its whole reply.
    static let refusals: [(String, String)] = [
        ("format=xml", "ERR BADARG format must be duo-scan or sarif or sdk-check"),
        ("format=duo-scan commit=zz", "ERR BADARG commit must be a hexadecimal commit id"),
        ("format=duo-scan commit=abc", "ERR BADARG commit must be a hexadecimal commit id"),
        (
            "format=duo-scan commit=abcd commit-time=yesterday",
            "ERR BADARG commit-time must be an ISO 8601 time with an offset (2026-11-30T10:00:00+01:00)"
        ),
        ("format=duo-scan commit-time=2026-11-30T10:00:00+01:00", "ERR BADARG commit-time needs commit"),
        ("format=duo-scan force=maybe", "ERR BADARG force must be yes or no"),
    ]

    @Test("each bad upload gets today's whole refusal, its payload is skipped, and the connection stays usable")
    func refusals() throws {
        let running = try RunningServer.withDatabase()
        let client = try running.owner()
        #expect(try client.request("PROJECT CREATE app")?.hasPrefix("* name=app") == true)
        #expect(try client.readLine() == "OK count=1")
        for (keys, expected) in Self.refusals {
            try client.send("INGEST app \(keys) 2\n{}")
            #expect(try client.readLine() == expected, "\(keys)")
        }
        #expect(try client.request("PING") == "OK PONG")
        #expect(try client.request("RUNS app") == "OK count=0")
    }
}
