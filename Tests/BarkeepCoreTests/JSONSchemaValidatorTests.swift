import Foundation
import Testing

@testable import BarkeepCore

/// The JSON Schema subset the MCP tools' input schemas are checked with: every keyword it claims, on values as
/// `JSONSerialization` reads them from a client's JSON.
@Suite("JSONSchemaValidator")
struct JSONSchemaValidatorTests {
    /// A tool's input schema, as MCPSchema builds them: closed, with the kinds of argument the tools take.
    static var schema: [String: Any] {
        [
            "type": "object", "additionalProperties": false, "required": ["status"],
            "dependentRequired": ["commit_time": ["commit"]],
            "properties": [
                "status": ["type": "string", "enum": ["approved", "applied", "declined"], "description": "To set."],
                "dry_run": ["type": "boolean"],
                "severity": ["type": "array", "items": ["type": "string", "enum": ["high", "medium", "low"]]],
                "numbers": ["type": "array", "minItems": 1, "items": ["type": "integer", "minimum": 1]],
                "limit": ["type": "integer", "minimum": 1, "maximum": 500],
                "owner": ["type": "string", "minLength": 1, "maxLength": 8],
                "step": [
                    "anyOf": [
                        ["type": "integer", "minimum": 1, "maximum": 12],
                        ["type": "string", "enum": ["container", "overflow"]],
                    ]
                ],
                "commit": ["type": "string", "minLength": 1],
                "commit_time": ["type": "string", "minLength": 1],
                "filter": [
                    "type": "object", "additionalProperties": false, "properties": ["rule": ["type": "string"]],
                ],
                "note": ["type": ["string", "null"]],
            ],
        ]
    }

    /// The violation of the arguments object written as JSON text (as a client sends it), or nil.
    static func check(_ json: String) throws -> String? {
        let arguments = try JSONSerialization.jsonObject(with: Data(json.utf8))
        return JSONSchemaValidator.violation(of: arguments, against: schema)?.description
    }

    @Test(
        "what conforms passes",
        arguments: [
            #"{"status":"approved"}"#,
            #"{"status":"approved","dry_run":true,"numbers":[17,18],"limit":500}"#,
            #"{"status":"applied","severity":["high","low"],"owner":"ana"}"#,
            #"{"status":"applied","step":3}"#,
            #"{"status":"applied","step":"overflow"}"#,
            // JSON Schema's integer is any number without a fraction.
            #"{"status":"applied","limit":25.0}"#,
            #"{"status":"applied","commit":"abc","commit_time":"2026-11-30T10:00:00Z"}"#,
            #"{"status":"applied","filter":{"rule":"DUO003"},"note":null}"#,
        ])
    func conforming(_ json: String) throws {
        #expect(try Self.check(json) == nil)
    }

    @Test(
        "what does not conform is refused, naming the argument and what it must be",
        arguments: [
            // Unknown names: the closest known one, or the known ones when none is close.
            (#"{"status":"approved","dryrun":true}"#, "unknown argument 'dryrun' (did you mean 'dry_run'?)"),
            (#"{"status":"approved","severty":["high"]}"#, "unknown argument 'severty' (did you mean 'severity'?)"),
            (
                #"{"status":"approved","zzzzzzzz":1}"#,
                "unknown argument 'zzzzzzzz'; known: commit, commit_time, dry_run, filter, limit, note, numbers, "
                    + "owner, severity, status, step"
            ),
            (#"{"status":"approved","filter":{"rules":"x"}}"#, "filter has no member 'rules' (did you mean 'rule'?)"),
            // Required, and required together.
            (#"{"dry_run":true}"#, "status is required"),
            (#"{"status":"applied","commit_time":"2026-11-30T10:00:00Z"}"#, "commit_time needs commit"),
            // Types: string, integer, array, boolean, null.
            (#"{"status":17}"#, "status must be a string, not 17"),
            (#"{"status":"applied","dry_run":"yes"}"#, "dry_run must be a boolean (true or false), not 'yes'"),
            (#"{"status":"applied","dry_run":1}"#, "dry_run must be a boolean (true or false), not 1"),
            (#"{"status":"applied","limit":true}"#, "limit must be an integer, not true"),
            (#"{"status":"applied","limit":2.5}"#, "limit must be an integer, not 2.5"),
            (#"{"status":"applied","limit":"25"}"#, "limit must be an integer, not '25'"),
            (#"{"status":"applied","numbers":17}"#, "numbers must be an array of integers, not 17"),
            (#"{"status":"applied","numbers":[17,"18"]}"#, "numbers[1] must be an integer, not '18'"),
            (#"{"status":"applied","severity":"high"}"#, "severity must be an array of strings, not 'high'"),
            (#"{"status":"applied","owner":null}"#, "owner must be a string, not null"),
            (#"{"status":"applied","filter":[]}"#, "filter must be an object, not an array"),
            // Enumerations, with the closest value.
            (
                #"{"status":"aproved"}"#,
                "status must be one of approved, applied, declined, not 'aproved' (did you mean 'approved'?)"
            ),
            (
                #"{"status":"applied","severity":["high","hgh"]}"#,
                "severity[1] must be one of high, medium, low, not 'hgh' (did you mean 'high'?)"
            ),
            // Bounds of numbers, strings and arrays.
            (#"{"status":"applied","limit":0}"#, "limit must be from 1 to 500, not 0"),
            (#"{"status":"applied","numbers":[0]}"#, "numbers[0] must be at least 1, not 0"),
            (#"{"status":"applied","numbers":[]}"#, "numbers must not be empty"),
            (#"{"status":"applied","owner":""}"#, "owner must not be empty"),
            (#"{"status":"applied","owner":"someone-long"}"#, "owner must be at most 8 characters"),
            // anyOf: the alternative of the value's type answers; none of its type names the types.
            (#"{"status":"applied","step":13}"#, "step must be from 1 to 12, not 13"),
            (
                #"{"status":"applied","step":"overflw"}"#,
                "step must be one of container, overflow, not 'overflw' (did you mean 'overflow'?)"
            ),
            (#"{"status":"applied","step":false}"#, "step must be an integer or a string, not false"),
        ])
    func refused(_ json: String, _ message: String) throws {
        #expect(try Self.check(json) == message)
    }

    @Test("an unknown name comes first, whatever else is wrong, and a long value is quoted short")
    func order() throws {
        #expect(try Self.check(#"{"dryrun":true}"#) == "unknown argument 'dryrun' (did you mean 'dry_run'?)")
        let long = String(repeating: "x", count: 8 << 20)
        let message = try #require(try Self.check(#"{"status":"\#(long)"}"#))
        #expect(message.count < 200, "\(message.prefix(300))")
    }

    @Test("a value that is not an object is refused as the arguments themselves")
    func notAnObject() {
        #expect(
            JSONSchemaValidator.violation(of: [Any](), against: Self.schema)?.description
                == "must be an object, not an array")
    }

    @Test("a keyword the validator does not check is named, so no schema claims what nothing enforces")
    func unsupported() {
        #expect(JSONSchemaValidator.unsupportedKeywords(in: Self.schema) == [])
        let schema: [String: Any] = [
            "type": "object", "additionalProperties": ["type": "string"],
            "properties": [
                "key": ["type": "string", "pattern": "^[A-Z]"],
                "step": ["anyOf": [["type": "integer", "multipleOf": 2]]],
                "list": ["type": "array", "items": ["type": "string", "format": "date-time"]],
            ],
        ]
        #expect(
            JSONSchemaValidator.unsupportedKeywords(in: schema) == [
                "additionalProperties (only false is understood)", "properties.key.pattern",
                "properties.list.items.format", "properties.step.anyOf[0].multipleOf",
            ])
    }
}
