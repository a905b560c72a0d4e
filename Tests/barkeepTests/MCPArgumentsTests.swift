import BarkeepCore
import Foundation
import Testing

@testable import barkeep

/// What `barkeep mcp` enforces of its tools' input schemas, and how it words what an agent reads: without a daemon
/// (the end-to-end checks, with the official SDK, are MCPServerTests').
@Suite("barkeep mcp: argument schemas and wording")
struct MCPArgumentsTests {
    /// Every tool, by name.
    static var tools: [String: MCPTool] {
        Dictionary(uniqueKeysWithValues: MCPTools.catalog(isReadOnly: false).map { ($0.name, $0) })
    }

    @Test("every input schema is closed and uses only the keywords the validator checks")
    func schemasAreEnforceable() throws {
        #expect(Self.tools.count == 17)
        for tool in Self.tools.values {
            let schema = tool.inputSchema
            #expect(JSONSchemaValidator.unsupportedKeywords(in: schema) == [], "\(tool.name)")
            #expect((schema["additionalProperties"] as? Bool) == false, "\(tool.name)")
            // The listing carries the very schema calls are checked against.
            let listed = try #require(tool.listing["inputSchema"] as? [String: Any])
            #expect(NSDictionary(dictionary: listed).isEqual(to: schema), "\(tool.name)")
        }
    }

    @Test("every tool refuses an argument it does not declare, naming the closest it does")
    func unknownArguments() throws {
        for tool in Self.tools.values {
            let properties = try #require(tool.inputSchema["properties"] as? [String: Any])
            // One letter dropped from each argument's name: refused, and that argument suggested.
            for name in properties.keys where name.count > 4 {
                var typo = name
                typo.remove(at: typo.index(typo.startIndex, offsetBy: 2))
                guard properties[typo] == nil else { continue }
                let violation = JSONSchemaValidator.violation(of: [typo: 1], against: tool.inputSchema)
                #expect(violation?.description.hasPrefix("unknown argument '\(typo)' (did you mean ") == true)
                #expect(violation?.description.contains("'\(name)'") == true, "\(tool.name): \(typo)")
            }
        }
    }

    /// The message of `refusal` worded for the tool `name`.
    static func reworded(_ message: String, tool name: String) throws -> String {
        let tool: MCPTool = try #require(tools[name])
        return MCPWording.reworded(message, for: tool)
    }

    @Test("the daemon's refusals of an old commit name ingest_scan's arguments, never --force or commit-time")
    func staleScanWording() throws {
        let earlier = PriorScan(number: 3, commit: "cccccccc3333", commitTime: Date(timeIntervalSince1970: 2e9))
        let refusals: [StaleScan] = [
            .alreadyIngested(commit: "cccccccc3333", run: earlier),
            .older(
                commit: "dddddddd", commitTime: Date(timeIntervalSince1970: 1e9), latest: earlier,
                latestCommit: "cccccccc3333", latestCommitTime: Date(timeIntervalSince1970: 2e9)),
            .unordered(
                commit: "dddddddd", latest: earlier, latestCommit: "cccccccc3333",
                latestCommitTime: Date(timeIntervalSince1970: 2e9)),
        ]
        for refusal in refusals {
            let message = try Self.reworded(refusal.message(tool: "duo_scan", scope: ""), tool: "ingest_scan")
            #expect(message.contains("force: true to ingest it"), "\(message)")
            #expect(!message.contains("--") && !message.contains("commit-time"), "\(message)")
        }
        let unordered = try Self.reworded(refusals[2].message(tool: "duo_scan", scope: ""), tool: "ingest_scan")
        #expect(unordered.contains("give its commit time (commit_time, or ingest from its checkout)"))
    }

    @Test(
        "CLI options and wire keys become the tool's arguments; what names none of them is left alone",
        arguments: [
            (
                "finding 4 is fixed: a failed pose maps to a finding or item that needs work (or give --item TITLE "
                    + "to add one)",
                "record_pose",
                "finding 4 is fixed: a failed pose maps to a finding or item that needs work (or give item to add one)"
            ),
            (
                "unknown SDK symbol 'axisBehaviour' (did you mean 'axisBehavior'?); for a symbol the table lacks, name "
                    + "the SDK that declares it: --sdk VERSION, sdk=VERSION on the wire",
                "add_item",
                "unknown SDK symbol 'axisBehaviour' (did you mean 'axisBehavior'?); for a symbol the table lacks, name "
                    + "the SDK that declares it: sdk"
            ),
            (
                "new-in is a run's number in the project, 1 to 2147483647, not '0'", "list_findings",
                "new_in is a run's number in the project, 1 to 2147483647, not '0'"
            ),
            ("not-done must be yes or no", "list_screens", "not_done must be yes or no"),
            ("commit-time needs commit", "ingest_scan", "commit_time needs commit"),
            ("the format sdk-check takes no scope", "ingest_scan", "the format sdk-check takes no scope"),
            ("--status proposed chooses", "set_finding_status", "current_status proposed chooses"),
            ("status=approved given", "set_finding_status", "current_status: approved given"),
            ("--where needs --dry-run", "set_finding_status", "--where needs dry_run: true"),
            ("--force is the CLI's", "list_findings", "--force is the CLI's"),
        ])
    func wording(_ message: String, _ tool: String, _ expected: String) throws {
        #expect(try Self.reworded(message, tool: tool) == expected)
    }

    @Test("bulk summaries spell their verbs: Assigned, Would assign, Changed")
    func bulkSummaries() throws {
        let object: [String: Any] = ["dry_run": false, "changed": 1, "unchanged": 0, "refused": 0]
        #expect(
            MCPTools.bulkSummary(object, verb: "assign", past: "assigned", project: "app", to: "ana")
                == "Assigned 1 finding of app to ana (0 unchanged, 0 refused).")
        var dryRun = object
        dryRun["dry_run"] = true
        dryRun["changed"] = 2
        #expect(
            MCPTools.bulkSummary(dryRun, verb: "assign", past: "assigned", project: "app", to: "ana")
                == "Would assign 2 findings of app to ana (0 unchanged, 0 refused).")
    }

    /// The tools composed of several commands (or of a command not yet declared by a spec), with arguments of their
    /// own; every other tool is bound to its command's request.
    static let composite: Set<String> = [
        "project_status", "list_screens", "pose_matrix", "readiness_report", "checklist",
        "list_findings", "set_finding_status", "assign_findings", "ingest_scan",
    ]

    @Test("every tool but the composite ones is bound to its command's spec: its arguments are the request's fields")
    func toolsAreBound() throws {
        for tool in Self.tools.values {
            guard let request = tool.request else {
                #expect(Self.composite.contains(tool.name), "\(tool.name) has per-tool argument code")
                continue
            }
            #expect(!Self.composite.contains(tool.name), "\(tool.name) is bound: take it out of composite")
            let properties = try #require(tool.inputSchema["properties"] as? [String: Any])
            let fieldNames = Dictionary(uniqueKeysWithValues: tool.renamed.map { ($0.value, $0.key) })
            var expected: [String: [String: Any]] = [:]
            for field in request.argumentSchemas where !tool.hidden.contains(field.jsonName) {
                expected[fieldNames[field.jsonName] ?? field.jsonName] = field.schema
            }
            #expect(Set(properties.keys) == Set(expected.keys).union(["project"]), "\(tool.name)")
            for (name, schema) in expected where name != "project" {
                let listed = try #require(properties[name] as? [String: Any], "\(tool.name) \(name)")
                #expect(try Self.text(listed) == Self.text(schema), "\(tool.name) \(name)")
            }
        }
    }

    /// A JSON object as sorted JSON text, to compare two of them.
    static func text(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
