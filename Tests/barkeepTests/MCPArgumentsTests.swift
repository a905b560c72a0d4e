import BarkeepCommandLine
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
        #expect(Self.tools.count == 18)
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
            FindingTools.bulkSummary(object, verb: "assign", past: "assigned", project: "app", to: "ana")
                == "Assigned 1 finding of app to ana (0 unchanged, 0 refused).")
        var dryRun = object
        dryRun["dry_run"] = true
        dryRun["changed"] = 2
        #expect(
            FindingTools.bulkSummary(dryRun, verb: "assign", past: "assigned", project: "app", to: "ana")
                == "Would assign 2 findings of app to ana (0 unchanged, 0 refused).")
    }

    @Test("every tool's arguments are the fields it is declared by: a request's, or a composite's by reference")
    func toolsAreBound() throws {
        for tool in Self.tools.values {
            let properties = try #require(tool.inputSchema["properties"] as? [String: Any])
            let argumentOf = Dictionary(uniqueKeysWithValues: tool.renamed.map { ($0.value, $0.key) })
            var expected: [String: [String: Any]] = [:]
            for field in tool.fields where !tool.hidden.contains(field.jsonName) {
                expected[argumentOf[field.jsonName] ?? field.jsonName] = field.schema
            }
            #expect(Set(properties.keys) == Set(expected.keys).union(["project"]), "\(tool.name)")
            for (name, schema) in expected where name != "project" {
                let listed = try #require(properties[name] as? [String: Any], "\(tool.name) \(name)")
                #expect(try Self.text(listed) == Self.text(schema), "\(tool.name) \(name)")
            }
        }
    }

    /// A context whose daemon is out of reach: a call that sends anything fails UNAVAILABLE.
    static func unreachable() throws -> CLIContext {
        try CLIContext(CommandLineParser.parse(["--server", "127.0.0.1:1", "mcp"], root: BarkeepCommand.self))
    }

    /// A value `schema` accepts: the first of an enumeration, the least number, one item.
    static func example(_ schema: [String: Any]) -> Any {
        if let values = schema["enum"] as? [Any], let first = values.first { return first }
        if let alternatives = schema["anyOf"] as? [[String: Any]], let first = alternatives.first {
            return example(first)
        }
        switch schema["type"] as? String {
        case "integer": return schema["minimum"] as? Int ?? 1
        case "boolean": return true
        case "array": return [example(schema["items"] as? [String: Any] ?? [:])]
        default: return "Menu"
        }
    }

    /// A value of the wrong JSON type for `schema`.
    static func wrong(_ schema: [String: Any]) -> Any {
        if schema["anyOf"] != nil { return true }
        return schema["type"] as? String == "string" ? 1 : "x"
    }

    /// Each tool, the arguments it requires given a value its schema accepts.
    static func validCalls() throws -> [(tool: MCPTool, arguments: [String: Any])] {
        try tools.values.sorted { $0.name < $1.name }.map { tool in
            let properties = try #require(tool.inputSchema["properties"] as? [String: [String: Any]])
            var arguments: [String: Any] = [:]
            for name in tool.required { arguments[name] = example(try #require(properties[name])) }
            return (tool, arguments)
        }
    }

    @Test("through MCP, every tool refuses an unknown argument and each mistyped one, naming it, sending nothing")
    func refusedThroughTheServer() throws {
        let server = MCPServer(
            context: try Self.unreachable(), defaultProject: "app", isReadOnly: false,
            logger: Logger(level: .error, clock: { Date(timeIntervalSince1970: 0) }, sink: { _ in }))
        var id = 0
        func call(_ tool: String, _ arguments: [String: Any]) throws -> String {
            id += 1
            let response = try #require(
                server.respond(
                    to: .request(id: id, method: "tools/call", params: ["name": tool, "arguments": arguments])
                ))
            let result = try #require(response["result"] as? [String: Any], "\(response)")
            #expect(result["isError"] as? Bool == true, "\(tool) \(arguments)")
            return ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        }
        for (tool, valid) in try Self.validCalls() {
            // dry_run misspelled, and any name the tool does not take.
            for unknown in ["dryrun", "no_such_argument"] {
                var arguments = valid
                arguments[unknown] = true
                let text = try call(tool.name, arguments)
                #expect(text.hasPrefix("BADARG: unknown argument '\(unknown)'"), "\(tool.name): \(text)")
            }
            let properties = try #require(tool.inputSchema["properties"] as? [String: [String: Any]])
            for (name, schema) in properties {
                var arguments = valid
                arguments[name] = Self.wrong(schema)
                let text = try call(tool.name, arguments)
                #expect(text.hasPrefix("BADARG: \(name) "), "\(tool.name) \(name): \(text)")
            }
        }
        #expect(id > 100)
    }

    @Test("the decoding itself, without the schema check, refuses unknown and mistyped arguments of every tool")
    func refusedByTheFields() throws {
        let context = try Self.unreachable()
        for (tool, valid) in try Self.validCalls() {
            func refusal(_ arguments: [String: Any]) -> String? {
                do {
                    _ = try tool.run(MCPToolCall(arguments: arguments, defaultProject: "app", context: context))
                    return nil
                } catch let error as MCPArgumentError {
                    return error.message
                } catch {
                    return "sent: \(error)"
                }
            }
            var misspelt = valid
            misspelt["dryrun"] = true
            #expect(refusal(misspelt)?.contains("dryrun") == true, "\(tool.name): \(refusal(misspelt) ?? "accepted")")
            let properties = try #require(tool.inputSchema["properties"] as? [String: [String: Any]])
            for (name, schema) in properties where name != "project" {
                var arguments = valid
                arguments[name] = Self.wrong(schema)
                let message = refusal(arguments)
                let isNamed = message?.hasPrefix(name + " ") == true || message?.hasPrefix(name + ": ") == true
                #expect(isNamed, "\(tool.name) \(name): \(message ?? "accepted")")
            }
        }
    }

    @Test(
        "the bulk tools choose by numbers or by filters: neither (every finding) and both are refused, unsent",
        arguments: ["set_finding_status", "assign_findings"])
    func bulkLayouts(_ name: String) throws {
        let tool = try #require(Self.tools[name])
        let context = try Self.unreachable()
        let value: [String: Any] = name == "assign_findings" ? ["to": "ana"] : ["status": "approved"]
        func refusal(_ arguments: [String: Any]) -> String? {
            do {
                _ = try tool.run(
                    MCPToolCall(arguments: value.merging(arguments) { $1 }, defaultProject: "app", context: context))
                return nil
            } catch {
                return (error as? MCPArgumentError)?.message ?? "sent: \(error)"
            }
        }
        #expect(refusal([:]) == "give numbers, or filters (an empty filter would choose every finding)")
        #expect(refusal(["numbers": [1], "rule": ["DUO003"]]) == "give numbers or filters, not both")
        #expect(refusal(["where": true, "rule": ["DUO003"]]) == "where is not an argument of \(name)")
        // Numbers alone, or a filter alone, get as far as the daemon (out of reach here).
        #expect(refusal(["numbers": [1]])?.hasPrefix("sent: ") == true)
        #expect(refusal(["rule": ["DUO003"]])?.hasPrefix("sent: ") == true)
    }

    /// A JSON object as sorted JSON text, to compare two of them.
    static func text(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
