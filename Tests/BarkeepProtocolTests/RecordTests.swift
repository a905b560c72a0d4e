import BarkeepProtocol
import Testing

/// Values a record field must carry unchanged through `encoded` and `init(parsing:)`.
private let trickyValues: [String] = [
    "app", "27.1", "", " ", "a b", "\t", "line\nbreak", "\"", "say \"hi\"", "\\", "C:\\dir", "\\n",
    "a\"b\\c\nd\te", "é", "日本語 テスト", "🍺", "a\u{301}", "=", "a=b", "key=", "k=\"v\"", "A=b", "P1,P2,P3",
    "2026-11-29T10:00:00.000000Z",
]

@Suite("Record")
struct RecordTests {
    // MARK: - Building and encoding

    @Test(
        "encodes as '*' and key=value fields, nil values left out, and parses back",
        arguments: [
            (Record(), "*"),
            (Record(["name": "app"]), "* name=app"),
            (Record(["name": "app", "sdk": nil, "deployment-target": "26.0"]), "* name=app deployment-target=26.0"),
            (Record(["a": nil, "b": nil]), "*"),
            (Record(["last-used": nil, "revoked": nil, "name": "ci"]), "* name=ci"),
            (Record(["title": "Inbox list"]), #"* title="Inbox list""#),
            (Record(["reason": ""]), #"* reason="""#),
            (Record(["expression": "a=b"]), "* expression=a=b"),
            (Record(["text": "say \"hi\"\n\tC:\\"]), #"* text="say \"hi\"\n\tC:\\""#),
            (Record(["subject": "héllo 🍺"]), #"* subject="héllo 🍺""#),
            (
                Record([
                    "seq": "2", "project": "app", "kind": "project.updated", "subject": "sdk", "from": "27.0",
                    "to": "27.1", "reason": nil, "actor": "token:ci", "at": "2026-11-29T10:00:01.000000Z",
                ]),
                "* seq=2 project=app kind=project.updated subject=sdk from=27.0 to=27.1 actor=token:ci"
                    + " at=2026-11-29T10:00:01.000000Z"
            ),
        ]
    )
    func encoded(record: Record, line: String) throws {
        #expect(record.encoded == line)
        #expect(record.description == line)
        #expect(try Record(parsing: line) == record)
    }

    @Test("append adds fields in order and skips nil values")
    func append() {
        var record = Record()
        record.append("name", "app")
        record.append("sdk", nil)
        record.append("reason", "")
        record.append("created", "2026-11-29T10:00:00.000000Z")
        #expect(record.fields.map(\.key) == ["name", "reason", "created"])
        #expect(record == Record(["name": "app", "reason": "", "created": "2026-11-29T10:00:00.000000Z"]))
        #expect(record.encoded == #"* name=app reason="" created=2026-11-29T10:00:00.000000Z"#)
    }

    @Test(
        "the subscript finds a field's value, nil when absent or left out",
        arguments: [
            ("name", "app"), ("reason", ""), ("to", "a b"), ("sdk", nil), ("missing", nil), ("Name", nil),
        ] as [(String, String?)]
    )
    func subscriptValue(key: String, value: String?) {
        let record = Record(["name": "app", "sdk": nil, "reason": "", "to": "a b"])
        #expect(record[key] == value)
    }

    @Test("records are equal when their fields and order are")
    func equality() {
        #expect(Record(["a": "1", "b": "2"]) == Record(["a": "1", "b": "2"]))
        #expect(Record(["a": "1", "b": "2"]) != Record(["b": "2", "a": "1"]))
        #expect(Record(["a": "1"]) != Record(["a": "2"]))
        #expect(Record(["a": "1"]) != Record(["a": "1", "b": "2"]))
        #expect(Record(["a": "1", "b": nil]) == Record(["a": "1"]))
        #expect(Record() == Record(["a": nil]))
    }

    // MARK: - Parsing

    @Test(
        "parses record lines, with spaces or tabs between fields",
        arguments: [
            ("*", Record()),
            ("* ", Record()),
            ("* name=app", Record(["name": "app"])),
            ("*  name=app  sdk=27.0  ", Record(["name": "app", "sdk": "27.0"])),
            ("* name=app\tsdk=27.0", Record(["name": "app", "sdk": "27.0"])),
            (#"* title="a b" reason="#, Record(["title": "a b", "reason": ""])),
            (#"* reason="" to="\"x\"""#, Record(["reason": "", "to": "\"x\""])),
            ("* expression=a=b", Record(["expression": "a=b"])),
            (
                "* name=app sdk=27.0 deployment-target=26.0 required-poses=P1,P2,P3,P4,P11,P12"
                    + " created=2026-11-29T10:00:00.000000Z",
                Record([
                    "name": "app", "sdk": "27.0", "deployment-target": "26.0",
                    "required-poses": "P1,P2,P3,P4,P11,P12", "created": "2026-11-29T10:00:00.000000Z",
                ])
            ),
        ]
    )
    func parses(line: String, record: Record) throws {
        #expect(try Record(parsing: line) == record)
    }

    @Test(
        "a line that is not a record line is refused as a bad reply",
        arguments: [
            "", "OK", "OK count=1", "ERR BUSY try later", "*a=b", "*\ta=b", " * a=b", "** a=b", "+ a=b", "a=b",
            "# a=b",
        ]
    )
    func refusesNonRecord(line: String) {
        let error = #expect(throws: ProtocolError.self) { try Record(parsing: line) }
        guard case .badReply = error else {
            Issue.record("expected badReply, got \(String(describing: error))")
            return
        }
    }

    @Test(
        "a record holds only key=value fields: positional words are refused as a bad reply",
        arguments: [
            "* app", "* name=app extra", #"* "a=b""#, #"* name=app "two words""#, "* Name=app", "* SDK=27.1",
            "* =x", "* 1a=b", "* a.b=c", #"* """#,
        ]
    )
    func refusesPositional(line: String) {
        let error = #expect(throws: ProtocolError.self) { try Record(parsing: line) }
        guard case .badReply = error else {
            Issue.record("expected badReply, got \(String(describing: error))")
            return
        }
    }

    @Test(
        "a record with malformed quoting is refused",
        arguments: [#"* a="x"#, #"* a="\x""#, #"* a=b\c"#, #"* a="x"y"#, #"* a=b"c""#]
    )
    func refusesMalformedQuoting(line: String) {
        #expect(throws: ProtocolError.self) { try Record(parsing: line) }
    }

    // MARK: - Round trips

    @Test("every value survives encoding and parsing, alone and among other fields", arguments: trickyValues)
    func valueRoundTrip(value: String) throws {
        let alone = Record(["value": value])
        #expect(try Record(parsing: alone.encoded) == alone)
        let among = Record(["before": value, "middle": "x", "after": value])
        #expect(try Record(parsing: among.encoded) == among)
        #expect(try Record(parsing: among.encoded)["after"] == value)
    }

    @Test("a record line stays one line whatever its values hold", arguments: trickyValues)
    func staysOneLine(value: String) {
        let line = Record(["a": value, "b": value]).encoded
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.debugDescription)")
    }
}
