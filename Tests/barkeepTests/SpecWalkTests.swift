import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepServer
import BarkeepTestSupport
import Foundation
import Testing

/// Walks the command spec (BarkeepAPI's catalogue) and checks, for every command declared by one: the server's
/// table derives from it, its reply round-trips through the server's encoding and the CLI's one decoding layer at
/// every protocol version, its request through the wire and JSON, MCP refuses unknown and mistyped arguments, and
/// the CLI no longer builds its request by hand. Commands not yet converted are listed in `pending`; the list only
/// shrinks.
@Suite("the command spec agrees with the server's table, the CLI and MCP")
struct SpecWalkTests {
    /// The commands of the table not declared by a spec yet (issue 26's noun branches convert them).
    static let pending: Set<String> = [
        // Session
        // Projects
        // Scans
        // Findings
        // Screens
        // Steps
        // Audit
        // Dashboard
        // Automation
    ]

    @Test("every table command is declared by a spec or pending; every spec's command is in the table, derived")
    func table() throws {
        let table = CommandTable.standard.commands
        let names = Set(table.map(\.name))
        let specified = Set(API.commands.map { $0.spec.name })
        #expect(specified.count == API.commands.count, "two specs declare one command")
        #expect(Self.pending.isDisjoint(with: specified), "a converted command is still pending")
        #expect(Self.pending.isSubset(of: names), "pending names a command the table lacks")
        for command in table where !specified.contains(command.name) {
            #expect(Self.pending.contains(command.name), "\(command.name) has no spec and is not pending")
        }
        for request in API.commands {
            let command = try #require(table.first { $0.name == request.spec.name }, "\(request.spec.name)")
            #expect(command.request.map(ObjectIdentifier.init) == ObjectIdentifier(request), "\(command.name)")
            #expect(command.positional == request.positionalRange, "\(command.name)")
            #expect(command.keys == request.keys && command.requiredKeys == request.requiredKeys, "\(command.name)")
            #expect(command.repeatableKeys == request.repeatableKeys, "\(command.name)")
            #expect(command.minimumRole == request.spec.role, "\(command.name)")
            #expect(command.arguments == request.argumentKinds, "\(command.name)")
        }
    }

    /// The reply `R` encodes, read back by the client's decoder and encoded again, at `version`: the same bytes.
    private static func roundTrip<R: CommandRequest>(_ request: R.Type, version: Int) throws -> (String, String) {
        var bytes: [UInt8] = []
        R.Reply.example.reply(version: version).encode(into: &bytes)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let records = try lines.dropLast().map { line in try Record(parsing: line) }
        let final = try FinalLine(parsing: try #require(lines.last))
        let decoded = try R.Reply(records: records, final: final.fields, version: version, command: R.spec.name)
        var again: [UInt8] = []
        decoded.reply(version: version).encode(into: &again)
        return (String(decoding: bytes, as: UTF8.self), String(decoding: again, as: UTF8.self))
    }

    /// The request `R`'s example, sent as the CLI sends it and decoded as the server decodes it.
    private static func requestRoundTrip<R: CommandRequest>(_ request: R.Type) throws -> (Request, Request) {
        let line = R.exampleRequest.wireRequest
        var resolved = line
        resolved.arguments.removeFirst(R.spec.name.split(separator: " ").count - 1)
        return (line, try R(decoding: resolved).wireRequest)
    }

    @Test("every reply round-trips through the server's encoding and the CLI's decoding, at protocol 2 and 3")
    func replies() throws {
        for request in API.commands {
            for version in ProtocolVersion.supported {
                let (sent, read) = try Self.roundTrip(request, version: version)
                #expect(sent == read, "\(request.spec.name) at protocol \(version)")
                #expect(sent.hasSuffix("\n") && !sent.isEmpty)
            }
            let (line, decoded) = try Self.requestRoundTrip(request)
            #expect(line == decoded, "\(request.spec.name)")
        }
    }

    /// A JSON object of arguments given to `R`: nil when accepted, else the problem.
    private static func refusal<R: CommandRequest>(_ request: R.Type, _ json: [String: Any]) -> FieldProblem? {
        do {
            _ = try R(json: json)
            return nil
        } catch {
            return error
        }
    }

    @Test("MCP's schema of every command is closed, in JSONSchemaValidator's subset; unknown and mistyped refused")
    func jsonArguments() throws {
        for request in API.commands { Self.checkJSON(request) }
    }

    private static func checkJSON<R: CommandRequest>(_ request: R.Type) {
        let name = R.spec.name
        let schema = R.inputSchema
        #expect(schema["additionalProperties"] as? Bool == false, "\(name)")
        #expect(JSONSchemaValidator.unsupportedKeywords(in: schema).isEmpty, "\(name)")
        #expect(refusal(R.self, ["no_such_argument": 1])?.jsonName == "no_such_argument", "\(name)")
        let valid = R.exampleRequest.json
        #expect(refusal(R.self, valid) == nil, "\(name): \(valid)")
        #expect(JSONSchemaValidator.violation(of: valid, against: schema) == nil, "\(name)")
        for field in R.fields {
            var wrong = valid
            wrong[field.jsonName] = field.schema.wrongExample
            #expect(refusal(R.self, wrong)?.key == field.key, "\(name) \(field.key)")
            #expect(JSONSchemaValidator.violation(of: wrong, against: schema) != nil, "\(name) \(field.key)")
        }
    }

    @Test("the filter language is declared once: FindingFilters' keys are Core's FindingQuery keys, in order")
    func findingFilters() {
        #expect(FindingFilters.fields.map(\.key) == FindingQuery.keys)
        #expect(FindingFilters.fields.allSatisfy { !$0.isRequired && $0.placement == .key })
        for request in [FindingsRequest.self, FindingSetRequest.self, FindingAssignRequest.self]
            as [any CommandRequest.Type]
        {
            #expect(Set(FindingQuery.keys).isSubset(of: request.keys), "\(request.spec.name)")
        }
        // Every filter reaches Core's parser as it was given, and back.
        let keywords = FindingQuery.keys.map { ($0, $0 == "blocked" ? "yes" : "x") }
        #expect(FindingFilters(keywords: keywords).keywords.map(\.value) == keywords.map(\.1))
    }

    @Test("the CLI builds no converted command's request by hand")
    func cliUsesTheSpec() throws {
        let directory = CLIReferenceTests.root.appendingPathComponent("Sources/barkeep")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for request in API.commands {
                let words = request.spec.name.split(separator: " ")
                let literal = "Request(verb: \"\(words[0])\", arguments: [\"\(words.dropFirst().joined())\""
                #expect(!text.contains(literal), "\(file) builds \(request.spec.name) by hand")
            }
        }
        for file in [
            "TokenCommands.swift", "SourceCommands.swift", "HookCommands.swift", "LeasedActionCommand.swift",
            "IngestCommand.swift",
        ] {
            let text = try SourceTree.text(file, of: "barkeep")
            #expect(!text.contains("record["), "\(file) reads a reply field by key")
            #expect(!text.contains("fields["), "\(file) reads an OK line's field by key")
            #expect(!text.contains("Request(verb:"), "\(file) builds a request by hand")
        }
        // The audit commands (POSE RECORD's keys among them) are declared once: no key or reply field read by name.
        for (module, file) in [
            ("barkeep", "ItemCommands.swift"), ("barkeep", "SDKCommands.swift"), ("barkeep", "PoseCommands.swift"),
            ("barkeep", "MCP/Tools/AuditTools.swift"), ("BarkeepServer", "ItemCommands.swift"),
            ("BarkeepServer", "SDKCommands.swift"), ("BarkeepServer", "PoseCommands.swift"),
            // What the two AuditCommands.swift held besides the commands, split out with them.
            ("barkeep", "ItemChanges.swift"), ("barkeep", "WireValueOption.swift"),
            ("BarkeepServer", "FindingRecord+Finding.swift"), ("BarkeepServer", "ItemChangeRecord+ItemChange.swift"),
            ("BarkeepServer", "PoseResultRecord+PoseRecord.swift"),
        ] {
            let text = try SourceTree.text(file, of: module)
            for read in ["record[", ".fields[", "keyword(", "keywordList", "Request(verb:", "call.string("] {
                #expect(!text.contains(read), "\(file) reads \(read)")
            }
        }
        // The findings, scans and screen commands (MINE and SCREEN SHOW among them, with screen_detail and the
        // audit_screen prompt): no reply field read by key in their CLI files and tools.
        for file in [
            "FindingCommands.swift", "FindingsExport.swift", "FindingFilterOptions.swift",
            "MCP/Tools/FindingTools.swift", "TriageCommands.swift", "ScreenCommands.swift",
            "MCP/Tools/ScreenTools.swift", "MCP/MCPTools.swift",
        ] {
            let text = try SourceTree.text(file, of: "barkeep")
            for read in ["record[\"", "fields[\"", "run[\"", "finding[\"", "event[\""] {
                #expect(!text.contains(read), "\(file) reads a reply field by key")
            }
        }
    }

    /// docs/protocol.md's command table (section 10): each row's command, positional, keys, role and reply cells.
    static let commandRows: [(name: String, positional: String, keys: String, role: String, reply: String)] = {
        guard let text = try? String(contentsOf: docsURL, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 7, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { return nil }
            return (
                String(cells[1].dropFirst().dropLast()), cells[2], cells[3], cells[4],
                cells[5...].joined(separator: "|")
            )
        }
    }()

    /// docs/protocol.md's record bullets (`- \`token\`: …`), each with its continuation lines, by record name.
    static let recordBullets: [String: String] = {
        guard let text = try? String(contentsOf: docsURL, encoding: .utf8) else { return [:] }
        var bullets: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") {
                current = String(line[line.index(line.startIndex, offsetBy: 3)..<end])
            } else if line.hasPrefix("- An event record") {
                current = "event"
            } else if line.hasPrefix("- A scanner's `finding`") {
                current = "finding"
            } else if !line.hasPrefix("  ") {
                current = nil
            }
            if let current { bullets[current, default: ""] += line + "\n" }
        }
        // A record made of another's fields (`blocked`: … then the fields of the blocked item's `finding` record)
        // is described by that one's bullet too.
        for (name, text) in bullets {
            guard let range = text.range(of: #"fields of [^`]*`([a-z]+)` record"#, options: .regularExpression),
                let other = text[range].split(separator: "`").dropFirst().first
            else { continue }
            bullets[name, default: ""] += bullets[String(other)] ?? ""
        }
        return bullets
    }()

    static let docsURL = CLIReferenceTests.root.appendingPathComponent("docs/protocol.md")

    /// The layouts a positional cell documents: `PROJECT, [SCREEN], POSE[,POSE…], RESULT` is PROJECT, SCREEN,
    /// POSE, RESULT and PROJECT, POSE, RESULT (a bracketed word may be left out); `N` names a field `number`; the
    /// upload's SIZE (`SIZE, then SIZE bytes`) is the payload's, not a field.
    static func positionalLayouts(_ cell: String) -> [[String]] {
        guard cell != "—" else { return [[]] }
        var layouts: [[String]] = [[]]
        for word in cell.components(separatedBy: ", ") where !word.hasPrefix("SIZE") && !word.hasPrefix("then ") {
            let isOptional = word.hasPrefix("[") && word.hasSuffix("]")
            var name = word.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
            if let comma = name.firstIndex(of: ",") { name = String(name[..<comma]) }
            if name == "N" { name = "NUMBER" }
            let extended = layouts.map { $0 + [name] }
            layouts = isOptional ? layouts + extended : extended
        }
        return layouts
    }

    @Test("docs/protocol.md describes every declared command as its spec does, field by field")
    func documented() throws {
        #expect(!Self.commandRows.isEmpty && !Self.recordBullets.isEmpty)
        for request in API.commands { Self.checkDocs(request) }
    }

    private static func checkDocs<R: CommandRequest>(_ request: R.Type) {
        let name = R.spec.name
        let rows = commandRows.filter { $0.name == name }
        guard !rows.isEmpty else {
            Issue.record("docs/protocol.md's command table has no row for \(name)")
            return
        }
        // Each layout of positionals is a row's positional cell, named as the fields are.
        let layouts =
            R.spec.shapes.isEmpty
            ? [R.positionals.map(\.key)] : R.spec.shapes.map(\.positionals)
        for layout in layouts {
            let words = layout.map { $0.uppercased() }
            let found = rows.contains { row in positionalLayouts(row.positional).contains(words) }
            #expect(found, "\(name): no row of docs/protocol.md takes \(words)")
        }
        // Every key is in a row's keys cell, and the role is each row's.
        let keysText = rows.map(\.keys).joined(separator: " ")
        for field in R.fields where field.placement != .positional {
            #expect(keysText.contains("`\(field.key)`"), "\(name): docs/protocol.md does not list key \(field.key)")
        }
        let role = R.spec.role?.rawValue ?? "none"
        for row in rows { #expect(row.role == role, "\(name): docs/protocol.md says \(row.role), the spec \(role)") }
        // The OK line's fields are in a row's reply cell; each record's fields in its record's bullet.
        let replyText = rows.map(\.reply).joined(separator: " ")
        if let summary = R.Reply.summaryType {
            for key in summary.fieldKeys {
                #expect(replyText.contains("\(key)="), "\(name): docs/protocol.md's reply does not give \(key)=")
            }
        }
        // A record's field is described in its record's bullet, or in the command's reply cell or its own bullet
        // (a field only this reply adds, a record only this command sends: SCREEN SHOW's `type=why`).
        for record in R.Reply.recordTypes {
            var text = replyText + (recordBullets[name] ?? "")
            if let recordName = record.recordName {
                guard let bullet = recordBullets[recordName] else {
                    Issue.record("\(name): docs/protocol.md describes no `\(recordName)` record")
                    continue
                }
                text += bullet
            }
            for key in record.fieldKeys {
                #expect(
                    text.contains("`\(key)`") || text.contains("\(key)="),
                    "\(name): the \(record.recordName ?? "reply's") record's \(key) is not documented")
            }
        }
    }

    @Test("every command has an HTTP route or a reason; GET iff it reads; {names} are positionals; no route twice")
    func httpRoutes() {
        var seen: Set<String> = []
        var problems: [String] = []
        for request in API.commands { problems += Self.routeProblems(request, seen: &seen) }
        #expect(problems == [])
        // The line protocol's session commands, INGEST's upload and SCREENSHOT GET (the API serves the image itself)
        // are the only ones without a route.
        let unrouted = Set(API.commands.filter { $0.spec.http.method == nil }.map { $0.spec.name })
        #expect(unrouted == ["PING", "QUIT", "HELLO", "STATS", "INGEST", "SCREENSHOT GET"])
    }

    /// What is wrong with `R`'s route; `seen`: the routes of the commands before it, by method and shape.
    private static func routeProblems<R: CommandRequest>(_ request: R.Type, seen: inout Set<String>) -> [String] {
        let spec = R.spec
        guard let method = spec.http.method, let path = spec.http.path else {
            return (spec.http.unroutedReason ?? "").isEmpty ? ["\(spec.name) has no route and no reason"] : []
        }
        var problems: [String] = []
        let isGet = method == "GET"
        // A read that uploads (CHECK) is a POST: its payload is the body.
        let isRead = spec.effect == .read && spec.http.uploadContentTypes == nil
        if isGet != isRead { problems.append("\(spec.name): \(method) for its effect") }
        if path.hasPrefix("/") || path.hasPrefix("api/") { problems.append("\(spec.name): the table adds /api/v1/") }
        let positionals = Set(R.positionals.map(\.key))
        for name in spec.http.parameterNames where !positionals.contains(name) {
            problems.append("\(spec.name): {\(name)} is no positional field")
        }
        // Routes are unique per method, whatever their parameters are named.
        let shape = spec.http.segments.map { HTTPRoute.parameterName($0) == nil ? $0 : "{}" }
        let route = method + " " + shape.joined(separator: "/")
        if !seen.insert(route).inserted { problems.append("\(spec.name): \(route) is another command's route") }
        return problems
    }

    @Test("every command's JSON body of its example reply is JSON, and fits its declared schema (the API's 200 body)")
    func jsonBodies() {
        for request in API.commands {
            let isJSON = Self.hasJSONBody(request)
            #expect(isJSON, "\(request.spec.name)")
        }
    }

    /// Whether `R`'s example body is JSON, and valid against its declared schema when it has one.
    private static func hasJSONBody<R: CommandRequest>(_ request: R.Type) -> Bool {
        let body = R.exampleRequest.jsonBody(of: R.Reply.example)
        guard JSONSerialization.isValidJSONObject(body) else { return false }
        guard let schema = R.jsonBodySchema else { return true }
        return JSONSchemaValidator.violation(of: body, against: schema) == nil
    }

    @Test("each error code has its HTTP status: 4xx for the request's fault, 5xx for the server's")
    func httpStatuses() {
        let statuses: [ErrorCode: Int] = [
            .badLine: 400, .badArgument: 400, .noAuth: 401, .forbidden: 403, .notFound: 404, .unknown: 404,
            .conflict: 409, .tooLong: 413, .busy: 503, .unavailable: 503, .internal: 500,
        ]
        for code in ErrorCode.allCases { #expect(code.httpStatus == statuses[code], "\(code)") }
        #expect(ErrorCode.allCases.filter(\.isRetryable) == [.busy, .unavailable])
    }

    @Test("a JSON 1 is a number to every value that takes one (on Linux it also casts to Bool)")
    func jsonOne() throws {
        let one = try #require(
            (try JSONSerialization.jsonObject(with: Data(#"{"v":1}"#.utf8)) as? [String: Any])?["v"])
        #expect(try RowLimit(json: one).value == 1)
        #expect(try SequenceNumber(json: one).value == 1)
        #expect(try ProjectNumber(json: one).value == 1)
        #expect(throws: Never.self) { try ChecklistStepName(json: one) }
        #expect(throws: Never.self) { try LeasedID<HookNoun>(json: one) }
    }
}
