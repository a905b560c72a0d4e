import BarkeepProtocol
import Testing

@Suite("CompactRecords")
struct CompactRecordsTests {
    /// A protocol-2 record: `type`, then `leading` fields, every counter of the type (the values of `counts`, 0
    /// for the others), then `trailing` fields.
    private func full(
        _ type: String, leading: [(String, String)] = [], counts: [String: String] = [:],
        trailing: [(String, String)] = []
    ) throws -> Record {
        var record = Record(["type": type])
        for (key, value) in leading { record.append(key, value) }
        for key in try #require(CompactRecords.counters[type]) { record.append(key, counts[key] ?? "0") }
        for (key, value) in trailing { record.append(key, value) }
        return record
    }

    @Test("a screen, an owner and the unmapped bucket lose their implied counters and get them back, in order")
    func roundTrip() throws {
        let records = [
            try full(
                "screen", leading: [("key", "Inbox"), ("title", "The inbox"), ("owner", "ana")],
                counts: ["high": "2", "untriaged-high": "2", "steps-done": "3", "steps-applicable": "12"],
                trailing: [("missing-poses", "P1,P3"), ("done", "no")]),
            try full(
                "screen", leading: [("key", "app"), ("kind", "area")], trailing: [("done", "yes")]),
            try full("screen", leading: [("key", "Empty")]),
            try full(
                "owner", leading: [("owner", "bo"), ("screens", "3")],
                counts: ["screens-done": "1", "medium": "5", "untriaged-medium": "3", "in-progress-medium": "2"]),
            try full("owner", leading: [("screens", "1")]),
            try full("unmapped"),
            try full("unmapped", counts: ["info": "10", "in-progress-info": "4", "blocked": "1"]),
            try full(
                "screen", leading: [("key", "Poses")], counts: ["poses-passed": "3", "poses-required": "6"],
                trailing: [("failed-poses", "P3"), ("missing-poses", "P1,P2"), ("done", "no")]),
            try full(
                "screen", leading: [("key", "Odd")], counts: ["poses-passed": "1", "poses-required": "6"],
                trailing: [("missing-poses", "P1"), ("done", "no")]),
        ]
        // A severity's count goes when it is the sum of its stages (none blocked), and stays when it is not.
        #expect(CompactRecords.compacted(records[0])["high"] == nil)
        #expect(CompactRecords.compacted(records[0])["untriaged-high"] == "2")
        #expect(CompactRecords.compacted(records[6])["info"] == "10")
        // The required poses go when they are the settled, failed and missing ones, and stay when they are not.
        #expect(CompactRecords.compacted(records[7])["poses-required"] == nil)
        #expect(CompactRecords.compacted(records[8])["poses-required"] == "6")
        for record in records {
            let compact = CompactRecords.compacted(record)
            let type = try #require(record["type"])
            let counters = try #require(CompactRecords.counters[type])
            // No 0 is sent but a sum's that is not its sum (which no real record has).
            #expect(
                compact.fields.allSatisfy {
                    !($0.value == "0" && counters.contains($0.key) && CompactRecords.sum(of: $0.key, in: record) == nil)
                })
            #expect(CompactRecords.expanded(compact) == record, "\(compact)")
            #expect(CompactRecords.expanded(record) == record)
        }
    }

    @Test(
        "other records, the totals among them, are sent and read as they are",
        arguments: [
            Record(["type": "totals", "proposed": "0", "needs-work": "0", "steps-done": "0", "blocked": "0"]),
            Record(["type": "project", "name": "app", "sdk": "27.0"]),
            Record(["type": "blocked", "sdk": "none", "items": "0"]),
            Record(["key": "Inbox", "critical": "0", "blocked": "0"]),
        ]
    )
    func untouched(record: Record) {
        #expect(CompactRecords.compacted(record) == record)
        #expect(CompactRecords.expanded([record], verb: "STATUS") == [record])
    }

    @Test("only STATUS replies are compact, from protocol 3 on; a client expands only theirs")
    func scope() throws {
        #expect(CompactRecords.applies(to: "STATUS", version: 3))
        #expect(!CompactRecords.applies(to: "STATUS", version: ProtocolVersion.assumed))
        #expect(!CompactRecords.applies(to: "SCREEN", version: 3))
        #expect(ProtocolVersion.supported.contains(ProtocolVersion.current))
        #expect(CompactRecords.applies(to: "STATUS", version: ProtocolVersion.current))
        let compact = Record(["type": "unmapped", "high": "1"])
        #expect(CompactRecords.expanded([compact], verb: "MINE") == [compact])
        #expect(CompactRecords.expanded([compact], verb: "STATUS")[0]["critical"] == "0")
    }

    @Test(
        "a HELLO's protocol= is a supported version in plain decimal",
        arguments: [("2", 2), ("3", 3), ("1", nil), ("4", nil), ("03", nil), ("+3", nil), ("", nil), ("three", nil)]
    )
    func spoken(text: String, version: Int?) {
        #expect(ProtocolVersion.spoken(text) == version)
    }
}
