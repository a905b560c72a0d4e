import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// One call of a tool: its arguments, already checked against the tool's input schema (MCPServer does that before
/// any tool runs), read with the accessors every tool shares, and the daemon to ask.
struct MCPToolCall {
    /// The arguments as the client sent them.
    let arguments: [String: Any]
    /// The server's `--project`, for a call that names none.
    let defaultProject: String?
    /// How to reach the daemon.
    let context: CLIContext

    /// The project: `project`, else `--project`.
    func project() throws(MCPArgumentError) -> String {
        if let project = try string("project") { return project }
        guard let defaultProject else {
            throw MCPArgumentError(message: "project is required: this barkeep mcp has no default project")
        }
        return defaultProject
    }

    /// A string argument; nil when absent.
    func string(_ key: String) throws(MCPArgumentError) -> String? {
        switch arguments[key] {
        case nil, is NSNull: return nil
        case let text as String:
            guard !text.isEmpty else { throw MCPArgumentError(message: "\(key) must not be empty") }
            return text
        default: throw MCPArgumentError(message: "\(key) must be a string")
        }
    }

    /// A string argument that must be there.
    func requiredString(_ key: String) throws(MCPArgumentError) -> String {
        guard let value = try string(key) else { throw MCPArgumentError(message: "\(key) is required") }
        return value
    }

    /// A list of strings (a lone string counts as a list of one); nil when absent.
    func strings(_ key: String) throws(MCPArgumentError) -> [String]? {
        switch arguments[key] {
        case nil, is NSNull: return nil
        case let text as String: return [text]
        case let list as [Any]:
            let texts = list.compactMap { $0 as? String }
            guard texts.count == list.count else { throw MCPArgumentError(message: "\(key) must be strings") }
            return texts
        default: throw MCPArgumentError(message: "\(key) must be an array of strings")
        }
    }

    /// An integer argument; nil when absent.
    func integer(_ key: String) throws(MCPArgumentError) -> Int? {
        switch arguments[key] {
        case nil, is NSNull: return nil
        case let number as NSNumber where String(cString: number.objCType) != "c":
            guard number.doubleValue == number.doubleValue.rounded(), abs(number.doubleValue) < 9e15 else {
                throw MCPArgumentError(message: "\(key) must be an integer")
            }
            return number.intValue
        default: throw MCPArgumentError(message: "\(key) must be an integer")
        }
    }

    /// A list of integers; nil when absent.
    func integers(_ key: String) throws(MCPArgumentError) -> [Int]? {
        guard let list = arguments[key], !(list is NSNull) else { return nil }
        guard let items = list as? [Any] else { throw MCPArgumentError(message: "\(key) must be an array of integers") }
        return try items.indices.map { index throws(MCPArgumentError) in
            guard
                let value = try MCPToolCall(arguments: ["n": items[index]], defaultProject: nil, context: context)
                    .integer("n")
            else { throw MCPArgumentError(message: "\(key) must be an array of integers") }
            return value
        }
    }

    /// A checklist step that must be there: its number or its key, as the wire takes it.
    func step(_ key: String) throws(MCPArgumentError) -> String {
        if arguments[key] is String { return try requiredString(key) }
        guard let number = try integer(key) else { throw MCPArgumentError(message: "\(key) is required") }
        return String(number)
    }

    /// A boolean argument; nil when absent.
    func boolean(_ key: String) throws(MCPArgumentError) -> Bool? {
        switch arguments[key] {
        case nil, is NSNull: return nil
        case let number as NSNumber where String(cString: number.objCType) == "c": return number.boolValue
        default: throw MCPArgumentError(message: "\(key) must be true or false")
        }
    }

    /// The filter language's arguments given at top level (FindingFilters' fields, by JSON name, typed as
    /// MCPSchema.findingFilters types them), as the filters of a request; Core's FindingQuery checks them, as
    /// `barkeep findings` checks its options.
    func findingFilters() throws(MCPArgumentError) -> FindingFilters {
        var given: [(key: String, value: String)] = []
        for field in FindingFilters.fields {
            let (key, name) = (field.key, field.jsonName)
            guard let argument = arguments[name], !(argument is NSNull) else { continue }
            if FindingQuery.listKeys.contains(key) {
                if let values = try strings(name) { given.append((key, values.joined(separator: ","))) }
            } else if key == "blocked" {
                if let value = try boolean(name) { given.append((key, value ? "yes" : "no")) }
            } else if key == "step" {
                given.append((key, try step(name)))
            } else if key == "new-in" {
                if let run = try integer(name) { given.append((key, String(run))) }
            } else if let value = try string(name) {
                given.append((key, value))
            }
        }
        do {
            return FindingFilters(keywords: try FindingQuery.parse(keywords: given).keywords)
        } catch {
            throw MCPArgumentError(message: error.description)
        }
    }

    /// Sends one request and returns its reply.
    func send(_ request: Request) throws(CLIError) -> Response { try context.request(request) }

    /// Sends a typed request and returns its typed reply.
    func send<R: CommandRequest>(_ request: R) throws(CLIError) -> R.Reply { try context.send(request) }
}
