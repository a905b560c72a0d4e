import BarkeepCore
import BarkeepProtocol
import Foundation
import Testing

@Suite("ServerAddress")
struct ServerAddressTests {
    private static let longestPath = "/" + String(repeating: "p", count: ServerAddress.maximumSocketPathLength - 1)

    @Test(
        "parses host:port, [ipv6]:port, :port and unix:PATH",
        arguments: [
            ("localhost:7780", ServerAddress.tcp(host: "localhost", port: 7780)),
            ("127.0.0.1:7780", .tcp(host: "127.0.0.1", port: 7780)),
            ("db.example.com:1", .tcp(host: "db.example.com", port: 1)),
            ("host:65535", .tcp(host: "host", port: 65535)),
            // Port 0 lets a listener take a free port chosen by the kernel.
            ("host:0", .tcp(host: "host", port: 0)),
            (":0", .tcp(host: "0.0.0.0", port: 0)),
            ("[::1]:0", .tcp(host: "::1", port: 0)),
            ("host:080", .tcp(host: "host", port: 80)),
            ("[::1]:7780", .tcp(host: "::1", port: 7780)),
            ("[::]:7780", .tcp(host: "::", port: 7780)),
            ("[fe80::1:2]:443", .tcp(host: "fe80::1:2", port: 443)),
            ("[2001:db8::42]:7780", .tcp(host: "2001:db8::42", port: 7780)),
            (":7780", .tcp(host: "0.0.0.0", port: 7780)),
            ("unix:/tmp/barkeep.sock", .unix(path: "/tmp/barkeep.sock")),
            ("unix:./.barkeep/barkeep.sock", .unix(path: "./.barkeep/barkeep.sock")),
            ("unix:with space:and:colons", .unix(path: "with space:and:colons")),
            ("unix:" + longestPath, .unix(path: longestPath)),
        ]
    )
    func parsesValid(text: String, address: ServerAddress) throws {
        #expect(try ServerAddress(parsing: text) == address)
    }

    @Test(
        "refuses malformed addresses, naming the text",
        arguments: [
            "",
            "localhost",
            "unix",
            "/tmp/barkeep.sock",
            "host:",
            "host:65536",
            "host:99999999999999999999",
            "host:-1",
            "host:+80",
            "host:abc",
            "host:80x",
            "host: 80",
            "host:80 ",
            ":",
            "[::1]",
            "[::1]:",
            "::1",
            "::1:7780",
            "fe80::1:443",
            "2001:db8::42:7780",
            "[::1:7780",
            "::1]:7780",
            "unix:",
            "unix:/" + String(repeating: "p", count: ServerAddress.maximumSocketPathLength),
            "unix:/" + String(repeating: "é", count: 54),
        ]
    )
    func refusesInvalid(text: String) {
        let error = #expect(throws: ProtocolError.self) { try ServerAddress(parsing: text) }
        guard case .badAddress(let address, let reason) = error else {
            Issue.record("expected badAddress, got \(String(describing: error))")
            return
        }
        #expect(address == text)
        #expect(!reason.isEmpty)
        #expect(error?.code == .badLine)
    }

    @Test(
        "the reason says what is wrong",
        arguments: [
            ("host:65536", "65535"),
            ("host:", "65535"),
            ("localhost", "host:port or unix:PATH"),
            ("::1:7780", "[::1]:7780"),
            ("unix:", "empty"),
            ("unix:/" + String(repeating: "p", count: 200), "at most 107 bytes"),
        ]
    )
    func reasons(text: String, fragment: String) {
        let error = #expect(throws: ProtocolError.self) { try ServerAddress(parsing: text) }
        #expect(error.map { "\($0)" }?.contains(fragment) == true, "\(String(describing: error))")
        // The address is quoted, a long one by its first 40 characters and its length.
        #expect(error.map { "\($0)" }?.contains(ValueExcerpt.quoted(text)) == true)
    }

    @Test("the socket path limit is 107 bytes of UTF-8, not characters")
    func socketPathBytes() throws {
        #expect(ServerAddress.maximumSocketPathLength == 107)
        let fits = "/" + String(repeating: "é", count: 53)  // 1 + 106 bytes
        #expect(try ServerAddress(parsing: "unix:" + fits) == .unix(path: fits))
        #expect(throws: ProtocolError.self) { try ServerAddress(parsing: "unix:" + fits + "é") }
    }

    @Test(
        "description is the form init(parsing:) reads",
        arguments: [
            (ServerAddress.tcp(host: "localhost", port: 7780), "localhost:7780"),
            (.tcp(host: "127.0.0.1", port: 1), "127.0.0.1:1"),
            (.tcp(host: "::1", port: 7780), "[::1]:7780"),
            (.tcp(host: "2001:db8::42", port: 65535), "[2001:db8::42]:65535"),
            (.tcp(host: "0.0.0.0", port: 7780), "0.0.0.0:7780"),
            (.unix(path: "/tmp/barkeep.sock"), "unix:/tmp/barkeep.sock"),
            (.unix(path: "relative:odd path"), "unix:relative:odd path"),
        ]
    )
    func description(address: ServerAddress, text: String) throws {
        #expect(address.description == text)
        #expect(try ServerAddress(parsing: address.description) == address)
    }

    @Test(
        "parsing the description of a parsed address gives the same address",
        arguments: ["localhost:7780", "[::1]:7780", ":7780", "[fe80::1:2]:443", "unix:/tmp/b.sock", "host:080"]
    )
    func roundTrip(text: String) throws {
        let address = try ServerAddress(parsing: text)
        #expect(try ServerAddress(parsing: address.description) == address)
        #expect(try ServerAddress(parsing: address.description).description == address.description)
    }

    @Test("the default addresses are those docs/protocol.md's transport table names")
    func defaults() throws {
        #expect(ServerAddress.defaultTCP == .tcp(host: "127.0.0.1", port: ServerAddress.defaultPort))
        #expect(ServerAddress.defaultSocketPath == ServerAddress.socketPath(in: ServerAddress.defaultDataDirectory))
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        #expect(text.contains("| TCP | `\(ServerAddress.defaultTCP)` |"))
        #expect(text.contains("| Unix domain socket (stream) | `\(ServerAddress.socketPath(in: "DATA_DIR"))` |"))
    }
}
