/// One HTTP response as the application gives it to `HTTPMachine`: the machine adds `Content-Length` and
/// `Connection: close` and drops the body of a `HEAD`. A response with an `eventStream` (`eventStream(_:)`) is not
/// a body but the start of a stream of Server-Sent Events that ends only when the connection closes.
struct HTTPResponse: Equatable, Sendable {
    /// The status code.
    var status: Int
    /// Header fields besides `Content-Length` and `Connection`, in order.
    var fields: [HTTPField]
    /// The body.
    var body: [UInt8]
    /// The event stream this response starts (its body is then empty): nil for every other response.
    var eventStream: HTTPEventStream?

    /// A response of `status` with `fields` and `body`.
    init(status: Int, fields: [HTTPField] = [], body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// The response that starts `stream` (docs/design/web-dashboard.md, section 6): `200`, `text/event-stream`,
    /// never cached, without `Content-Length` (it ends by closing); the machine then sends `retry:` and the events.
    static func eventStream(_ stream: HTTPEventStream) -> HTTPResponse {
        var response = HTTPResponse(
            status: 200,
            fields: [
                HTTPField(name: "Content-Type", value: "text/event-stream; charset=utf-8"),
                HTTPField(name: "Cache-Control", value: "no-store"),
            ])
        response.eventStream = stream
        return response
    }

    /// A refusal: `status` with `reason` as its plain-text body.
    static func refusal(_ status: Int, _ reason: String) -> HTTPResponse {
        HTTPResponse(
            status: status, fields: [HTTPField(name: "Content-Type", value: "text/plain; charset=utf-8")],
            body: Array("\(reason)\n".utf8))
    }

    /// The fields every response carries unless it sets them itself (docs/design/web-dashboard.md, section 2):
    /// BarkeepWeb's `PageSecurity.headers`, copied here because this file compiles alone into the `http` fuzz target
    /// (HTTPMachineTests checks the two agree). No inline script, style or outside origin; no sniffing; no referrer;
    /// nothing cached.
    static let securityFields = [
        HTTPField(
            name: "Content-Security-Policy",
            value: "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
                + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
        HTTPField(name: "X-Content-Type-Options", value: "nosniff"),
        HTTPField(name: "Referrer-Policy", value: "no-referrer"),
        HTTPField(name: "Cache-Control", value: "no-store"),
    ]

    /// The reason phrase of `status`.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }

    /// Appends the response to `output`: its head with `Content-Length` (none for an event stream; and `Connection: close` when
    /// `closesConnection`), then its body unless `omitsBody` (the answer to a `HEAD`).
    func encode(closesConnection: Bool, omitsBody: Bool, into output: inout [UInt8]) {
        output.append(contentsOf: "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n".utf8)
        // The security fields go on every response, refusals included, unless the response sets its own (a
        // screenshot's stricter policy, a static asset's caching).
        let named = Set(fields.map { $0.name.lowercased() })
        for field in fields + Self.securityFields.filter({ !named.contains($0.name.lowercased()) }) {
            output.append(contentsOf: field.name.utf8)
            output.append(contentsOf: ": ".utf8)
            // A value never ends the line early: any CR or LF in it would split the response.
            output.append(contentsOf: field.value.utf8.filter { $0 != 0x0D && $0 != 0x0A })
            output.append(contentsOf: "\r\n".utf8)
        }
        // An event stream has no length: it ends when the connection closes.
        if eventStream == nil { output.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8) }
        if closesConnection { output.append(contentsOf: "Connection: close\r\n".utf8) }
        output.append(contentsOf: "\r\n".utf8)
        if !omitsBody { output.append(contentsOf: body) }
    }
}
