import BarkeepProtocol
import Foundation

/// JSON error bodies: the wire's error code and a message, `{"code":"NOAUTH","message":"…"}`, as every API error is
/// answered (docs/design/web-dashboard.md, section 3).
extension HTTPResponse {
    /// The content type of every JSON answer, the API's and the listener's own refusals alike.
    static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON response of `status` with `object` as its body.
    static func json(_ status: Int, _ object: Any, fields: [HTTPField] = []) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(
            status: status,
            fields: [HTTPField(name: "Content-Type", value: jsonContentType)] + fields,
            body: Array(body))
    }

    /// A JSON error: `status` with the wire's `code` and `message`.
    static func error(_ status: Int, _ code: ErrorCode, _ message: String, fields: [HTTPField] = []) -> HTTPResponse {
        json(status, ["code": code.rawValue, "message": message], fields: fields)
    }

    /// The answer to a request without a valid token: `401` with the challenge.
    static func unauthorized(_ message: String) -> HTTPResponse {
        error(401, .noAuth, message, fields: [HTTPField(name: "WWW-Authenticate", value: "Bearer")])
    }

    /// The answer to every connection past the HTTP connection limit, and to a request the database pool has no
    /// room for: `503`, retry in a second.
    static func busy(_ message: String) -> HTTPResponse {
        error(503, .busy, message, fields: [HTTPField(name: "Retry-After", value: "1")])
    }

    /// The bytes written to a connection refused at accept: `busy`, closing.
    static let busyConnectionBytes: [UInt8] = {
        var bytes: [UInt8] = []
        busy("too many HTTP connections; retry later").encode(closesConnection: true, omitsBody: false, into: &bytes)
        return bytes
    }()
}
