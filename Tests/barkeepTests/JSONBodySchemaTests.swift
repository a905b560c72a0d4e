import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation
import Testing

/// The JSON Schemas of the API's 200 bodies (what `--json` prints), declared beside the code shaping each body
/// (BarkeepProtocol/Spec/JSONBodySchema): every route has one, and each is tied to its body by the bodies themselves
/// — a full example and an empty one fit, and a body with a member more, a required member less or a member of the
/// wrong type does not, so a body and its schema cannot drift apart unnoticed.
@Suite("every API body's schema is declared, fits the body, and is strict enough to refuse a drifted one")
struct JSONBodySchemaTests {
    @Test("every route's command declares its body's schema (none is 'an object or array')")
    func declared() {
        for route in RouteTable.routes {
            #expect(Self.schema(of: route.command) != nil, "\(route.command.spec.name)")
        }
    }

    @Test("each route's example body fits; with a member more, a member less or a mistyped one it does not")
    func strict() throws {
        for route in RouteTable.routes {
            let name = route.command.spec.name
            let example = Self.exampleBody(of: route.command)
            let (body, schema) = try #require(example, "\(name)")
            #expect(JSONSchemaValidator.violation(of: body, against: schema) == nil, "\(name)")
            guard let object = Self.firstObject(in: body) else { continue }
            let more = Self.replacingFirstObject(in: body, with: object.merging(["unknown_member": 1]) { $1 })
            #expect(JSONSchemaValidator.violation(of: more, against: schema) != nil, "\(name): a member more")
            let typed = object.keys.sorted().filter { key in
                var changed = object
                changed[key] = ["not": "this"]
                return JSONSchemaValidator.violation(
                    of: Self.replacingFirstObject(in: body, with: changed), against: schema)
                    != nil
            }
            #expect(
                typed.count == object.count,
                "\(name): a mistyped member is accepted: \(Set(object.keys).subtracting(typed))")
            let required = object.keys.sorted().filter { key in
                var changed = object
                changed[key] = nil
                return JSONSchemaValidator.violation(
                    of: Self.replacingFirstObject(in: body, with: changed), against: schema)
                    != nil
            }
            // SCREEN DISMISS answers either of two members (dismissed, or undismissed with undo).
            #expect(!required.isEmpty || name == "SCREEN DISMISS", "\(name): no member is required")
        }
    }

    @Test("bodies of records with their optional fields absent fit too (null, or left out, as each body writes them)")
    func emptyRecords() {
        var finding = FindingRecord()
        finding.severity = Severity.high.rawValue
        var change = FindingChangeRecord()
        change.finding = finding
        var blocked = BlockedRecord()
        blocked.finding = finding
        var detail = ScreenDetail()
        detail.findings = [finding]
        let bodies: [(String, Any, [String: Any])] = [
            ("finding", finding.listJSON, FindingRecord.listJSONSchema),
            (
                "finding show", HeadReply<FindingRecord, EventFields>(finding, rows: []).detailJSON,
                HeadReply<FindingRecord, EventFields>.detailJSONSchema
            ),
            ("change", change.listJSON, FindingChangeRecord.listJSONSchema),
            (
                "bulk", BulkChangeReply([change], summary: nil).bulkJSON(isDryRun: true),
                FindingChangeRecord.bulkJSONSchema
            ),
            ("blocked", blocked.listJSON, BlockedRecord.listJSONSchema),
            ("screen", ScreenRecord().listJSON, ScreenRecord.listJSONSchema),
            ("screen show", detail.detailJSON, ScreenDetail.detailJSONSchema),
            ("status", StatusParts().statusJSON, StatusParts.statusJSONSchema),
            (
                "mine",
                TypedReply(MineParts(screens: [ScreenRecord()], findings: [finding]), summary: MineSummary(name: "ana"))
                    .mineJSON,
                TypedReply<MineParts, MineSummary>.mineJSONSchema
            ),
        ]
        for (name, body, schema) in bodies {
            let violation = JSONSchemaValidator.violation(of: body, against: schema)
            #expect(violation == nil, "\(name): \(violation.map(String.init(describing:)) ?? "")")
        }
        // A severity not among Core's is refused (the enum comes from Severity).
        finding.severity = "loud"
        #expect(JSONSchemaValidator.violation(of: finding.listJSON, against: FindingRecord.listJSONSchema) != nil)
    }

    private static func schema<R: CommandRequest>(of command: R.Type) -> [String: Any]? { R.jsonBodySchema }

    private static func exampleBody<R: CommandRequest>(of command: R.Type) -> (Any, [String: Any])? {
        guard let schema = R.jsonBodySchema else { return nil }
        return (R.exampleRequest.jsonBody(of: R.Reply.example), schema)
    }

    /// The body's first object: itself, or its first element, or the first object among its members' values.
    private static func firstObject(in body: Any) -> [String: Any]? {
        if let object = body as? [String: Any] { return object }
        return (body as? [Any])?.first as? [String: Any]
    }

    /// `body` with its first object replaced by `object`.
    private static func replacingFirstObject(in body: Any, with object: [String: Any]) -> Any {
        if body is [String: Any] { return object }
        guard var array = body as? [Any], !array.isEmpty else { return body }
        array[0] = object
        return array
    }
}
