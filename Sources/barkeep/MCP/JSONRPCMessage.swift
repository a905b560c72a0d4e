import Foundation

/// A JSON-RPC 2.0 error code (the standard ones; the MCP stdio transport uses nothing else here).
enum JSONRPCErrorCode: Int {
    /// The line is not JSON.
    case parseError = -32700
    /// JSON, but not a JSON-RPC request object (a batch, no method, a bad id).
    case invalidRequest = -32600
    /// No such method.
    case methodNotFound = -32601
    /// The method's params are wrong (an unknown tool, arguments not an object, a write tool under --read-only).
    case invalidParams = -32602
    /// Something failed inside the server.
    case internalError = -32603
}

/// A failure answered as a JSON-RPC error object rather than a result.
struct JSONRPCError: Error {
    /// The code.
    let code: JSONRPCErrorCode
    /// One sentence for the client.
    let message: String

    /// An error with its code and message.
    init(_ code: JSONRPCErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// One message read from a line of standard input.
enum JSONRPCMessage {
    /// A request: it gets exactly one response carrying its id.
    case request(id: Any, method: String, params: [String: Any])
    /// A notification: no id, never answered.
    case notification(method: String, params: [String: Any])
    /// A response from the client (to nothing this server asks): ignored.
    case response
    /// Not a usable message: answered with this error, and the id when one could be read (else null).
    case invalid(id: Any?, JSONRPCError)

    /// Reads one line's bytes as a message. Never throws: garbage is `.invalid` with the right code.
    static func parse(_ bytes: ArraySlice<UInt8>) -> JSONRPCMessage {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            return .invalid(id: nil, JSONRPCError(.parseError, "the line is not JSON"))
        }
        guard let object = value as? [String: Any] else {
            // MCP since 2025-06-18 has no batches.
            return .invalid(id: nil, JSONRPCError(.invalidRequest, "a message is one JSON object (no batches)"))
        }
        let id = object["id"]
        if let id, !isValidID(id) {
            return .invalid(id: nil, JSONRPCError(.invalidRequest, "id must be a string or an integer"))
        }
        guard object["jsonrpc"] as? String == "2.0" else {
            return .invalid(id: id, JSONRPCError(.invalidRequest, "jsonrpc must be \"2.0\""))
        }
        guard let method = object["method"] else {
            if object["result"] != nil || object["error"] != nil { return .response }
            return .invalid(id: id, JSONRPCError(.invalidRequest, "a request needs a method"))
        }
        guard let method = method as? String else {
            return .invalid(id: id, JSONRPCError(.invalidRequest, "method must be a string"))
        }
        let params: [String: Any]
        switch object["params"] {
        case nil, is NSNull: params = [:]
        case let given as [String: Any]: params = given
        default:
            let error = JSONRPCError(.invalidParams, "params must be an object")
            return id.map { .invalid(id: $0, error) } ?? .notification(method: method, params: [:])
        }
        guard let id else { return .notification(method: method, params: params) }
        return .request(id: id, method: method, params: params)
    }

    /// A string, or a number without a fraction. JSONSerialization reads `true` as an NSNumber too, one whose
    /// type is `c` (a C char): refused.
    private static func isValidID(_ id: Any) -> Bool {
        if id is String { return true }
        guard let number = id as? NSNumber, String(cString: number.objCType) != "c" else { return false }
        return number.doubleValue == number.doubleValue.rounded()
    }

    /// The response to a request: its result.
    static func result(id: Any, _ result: [String: Any]) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    /// The response to a request, or to an unreadable line (id null): an error.
    static func error(id: Any?, _ error: JSONRPCError) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id ?? NSNull(), "error": ["code": error.code.rawValue, "message": error.message]]
    }
}
