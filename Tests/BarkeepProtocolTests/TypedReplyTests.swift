import BarkeepProtocol
import Testing

/// A reply keyed by `type=` (SCREEN SHOW, MINE): written part by part with `type=NAME` first, read back into its
/// parts by that word, refused when a part of one record is missing or doubled.
@Suite("typed replies: records keyed by type=")
struct TypedReplyTests {
    /// A record of one field.
    struct Item: WireFields {
        var name = ""
        static let fields: [Field<Item>] = [Field("name", \.name, "Its name.")]
    }

    /// One head, then items.
    struct Parts: TypedParts {
        var head = Item()
        var items: [Item] = []
        static let parts: [TypedPart<Parts>] = [.one("head", \.head), .many("item", \.items)]
    }

    /// The `OK` line's field.
    struct Summary: WireFields {
        var who = ""
        static let fields: [Field<Summary>] = [Field("who", \.who, "Whose.")]
    }

    typealias Reply = TypedReply<Parts, Summary>

    /// Reads the lines of a reply as the client does.
    static func read(_ text: String) throws -> Reply {
        let lines = text.split(separator: "\n").map(String.init)
        let records = try lines.dropLast().map { try Record(parsing: $0) }
        let final = try FinalLine(parsing: lines.last ?? "")
        return try Reply(records: records, final: final.fields, version: 3, command: "TEST")
    }

    @Test("each record starts with its part's type=, in the parts' order; the summary comes before count")
    func encoding() {
        var parts = Parts()
        parts.head.name = "h"
        parts.items = [Item(), Item()]
        parts.items[0].name = "a"
        parts.items[1].name = "b"
        var summary = Summary()
        summary.who = "ana"
        #expect(
            Reply(parts, summary: summary).reply(version: 3).encoded
                == "* type=head name=h\n* type=item name=a\n* type=item name=b\nOK who=ana count=3\n")
        #expect(TypedReply<Parts, NoFields>(parts).reply(version: 3).encoded.hasSuffix("\nOK count=3\n"))
    }

    @Test("records are read into their parts by type=; an unknown type is passed over")
    func decoding() throws {
        let reply = try Self.read("* type=item name=a\n* type=head name=h\n* type=later x=1\nOK who=ana count=3\n")
        #expect(reply.head.name == "h")
        #expect(reply.items.map(\.name) == ["a"])
        #expect(reply.summary.who == "ana")
    }

    @Test("a missing or doubled single part, a record without type= or a wrong count is a bad reply")
    func refusals() {
        for text in [
            "* type=item name=a\nOK who=ana count=1\n",
            "* type=head name=h\n* type=head name=i\nOK who=ana count=2\n",
            "* type=head name=h\n* name=a\nOK who=ana count=2\n",
            "* type=head name=h\nOK who=ana count=2\n",
            "* type=head name=h\nOK count=1\n",
        ] {
            #expect(throws: ProtocolError.self, "\(text)") { try Self.read(text) }
        }
    }
}
