import BarkeepProtocol
import Testing

@Suite("Request")
struct RequestTests {
    @Test(
        "splits a line into an upper-cased verb and arguments on spaces and tabs",
        arguments: [
            ("PING", "PING", []),
            ("ping", "PING", []),
            ("PiNg", "PING", []),
            ("auth s3cret", "AUTH", ["s3cret"]),
            ("AUTH MixedCase", "AUTH", ["MixedCase"]),
            ("project add MyApp", "PROJECT", ["add", "MyApp"]),
            ("  ping  ", "PING", []),
            ("a  b   c", "A", ["b", "c"]),
            ("a\tb\t\tc", "A", ["b", "c"]),
            (" \t tag \t x \t", "TAG", ["x"]),
            ("note héllo 日本", "NOTE", ["héllo", "日本"]),
            ("straße", "STRASSE", []),
        ]
    )
    func splits(line: String, verb: String, arguments: [String]) throws {
        let request = try #require(Request(line: line))
        #expect(request.verb == verb)
        #expect(request.arguments == arguments)
    }

    @Test("a blank line is no request", arguments: ["", " ", "\t", "  \t  \t"])
    func blank(line: String) {
        #expect(Request(line: line) == nil)
    }

    @Test("the memberwise initializer upper-cases the verb too")
    func memberwise() {
        let request = Request(verb: "hello", arguments: ["v1"])
        #expect(request.verb == "HELLO")
        #expect(request == Request(verb: "HELLO", arguments: ["v1"]))
        #expect(Request(verb: "ping").arguments == [])
    }

    @Test(
        "line joins verb and arguments with single spaces and parses back",
        arguments: [
            (Request(verb: "ping"), "PING"),
            (Request(verb: "auth", arguments: ["tok"]), "AUTH tok"),
            (Request(verb: "PROJECT", arguments: ["add", "My", "App"]), "PROJECT add My App"),
        ]
    )
    func line(request: Request, line: String) {
        #expect(request.line == line)
        #expect(Request(line: request.line) == request)
    }

    @Test("a messy line normalizes to single spaces")
    func normalizes() throws {
        let request = try #require(Request(line: "\tproject   add\tMyApp  "))
        #expect(request.line == "PROJECT add MyApp")
    }
}
