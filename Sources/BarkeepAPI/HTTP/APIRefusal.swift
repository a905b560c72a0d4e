import BarkeepProtocol

/// An HTTP API request refused: the status, the wire's error code, the message and the argument it is about, and
/// the JSON error body every refusal has (`{"code": "BADARG", "key": "severity", "message": "…"}`).
public struct APIRefusal: Error, Sendable, Equatable {
    /// The HTTP status (`ErrorCode.httpStatus`, or an HTTP-only one: 405).
    public let status: Int
    /// The error code, as the line protocol's `ERR` would give it.
    public let code: ErrorCode
    /// What is wrong, as the line protocol words it.
    public let message: String
    /// The argument it is about: the wire key for a path or query parameter, the JSON name for a body's; nil: none.
    public let key: String?
    /// The methods the path allows, for a 405's `Allow`; empty otherwise.
    public let allowedMethods: [String]

    /// A refusal with `code`'s status.
    public init(_ code: ErrorCode, _ message: String, key: String? = nil) {
        self.init(status: code.httpStatus, code: code, message: message, key: key, allowedMethods: [])
    }

    private init(status: Int, code: ErrorCode, message: String, key: String?, allowedMethods: [String]) {
        self.status = status
        self.code = code
        self.message = message
        self.key = key
        self.allowedMethods = allowedMethods
    }

    /// 405: the path exists, but not for `method`; `allowed` go in `Allow`.
    public static func methodNotAllowed(_ method: String, path: String, allowed: [String]) -> APIRefusal {
        APIRefusal(
            status: 405, code: .unknown,
            message: "\(method) is not allowed on \(path); allowed: \(allowed.joined(separator: ", "))", key: nil,
            allowedMethods: allowed)
    }

    /// The headers the refusal adds: `Allow` on a 405, `Retry-After: 1` when the server is busy or its database away.
    public var headers: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if !allowedMethods.isEmpty { headers.append(("Allow", allowedMethods.joined(separator: ", "))) }
        if code.isRetryable { headers.append(("Retry-After", "1")) }
        return headers
    }

    /// The JSON error object: `code`, `message`, and `key` when there is one.
    public var json: [String: Any] {
        var object: [String: Any] = ["code": code.rawValue, "message": message]
        if let key { object["key"] = key }
        return object
    }

    /// The body, `application/json; charset=utf-8`: the JSON error object as the CLI writes JSON.
    public var jsonBody: [UInt8] {
        // Strings alone cannot make JSONSerialization fail; were it to, the code still reaches the client.
        let text = (try? Record.jsonText(json)) ?? #"{"code":"\#(code.rawValue)"}"#
        return Array(text.utf8)
    }
}
