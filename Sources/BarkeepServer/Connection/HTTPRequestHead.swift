/// A request's head, parsed and checked: its request line and header fields (docs/design/web-dashboard.md,
/// section 1). Pure, with no imports: the fuzz target `http` compiles it alone.
struct HTTPRequestHead: Equatable, Sendable {
    /// Why a head is refused: the status it is answered with, and a short reason for the body.
    struct Refusal: Error, Equatable {
        /// The response status (400, 411, 413, 414, 431, 501, 505).
        var status: Int
        /// A short explanation, sent as the body.
        var reason: String
    }

    /// The methods served; any other is `501`.
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE"]

    /// The method, as sent (methods are case-sensitive).
    var method: String
    /// The request target, as sent (origin-form: it starts with `/`).
    var target: String
    /// The path's segments, percent-decoded (`/a/b%20c` → `["a", "b c"]`).
    var pathSegments: [String]
    /// The query's pairs in order, percent-decoded (`+` is a space), a key without `=` having an empty value.
    var query: [(name: String, value: String)]
    /// The minor version: 0 or 1 (of `HTTP/1.x`).
    var minorVersion: Int
    /// The header fields in order, names lowercased, values trimmed of surrounding spaces and tabs.
    var fields: [(name: String, value: String)]
    /// The body's length (`Content-Length`), 0 when there is none.
    var contentLength: Int
    /// Whether the connection stays open after the response (HTTP/1.1 unless `close`; 1.0 only with `keep-alive`).
    var keepsAlive: Bool

    /// The values of the fields named `name` (lowercase), in order.
    func values(of name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// Whether the client waits for `100 Continue` before sending its body.
    var expectsContinue: Bool { values(of: "expect").contains { $0.lowercased() == "100-continue" } }

    static func == (left: HTTPRequestHead, right: HTTPRequestHead) -> Bool {
        left.method == right.method && left.target == right.target && left.minorVersion == right.minorVersion
            && left.fields.elementsEqual(right.fields) { $0 == $1 } && left.contentLength == right.contentLength
            && left.keepsAlive == right.keepsAlive
    }

    /// Parses a head: the request line and the field lines, without the blank line that ends them, each line ending
    /// in CRLF or LF. `maximumFields`: more fields are refused `431`; a body longer than `maximumBody` is `413`.
    static func parse(_ bytes: ArraySlice<UInt8>, maximumFields: Int, maximumBody: Int) throws(Refusal)
        -> HTTPRequestHead
    {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw Refusal(status: 400, reason: "no request line") }
        var head = try parseRequestLine(stripCR(first))
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            fields.append(try parseField(stripCR(line)))
            guard fields.count <= maximumFields else {
                throw Refusal(status: 431, reason: "more than \(maximumFields) header fields")
            }
        }
        head.fields = fields
        try head.checkFraming(maximumBody: maximumBody)
        return head
    }

    private static func stripCR(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        line.last == 0x0D ? line.dropLast() : line
    }

    /// Whether `byte` may appear in a token (a method, a field name).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(Refusal) -> HTTPRequestHead {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let methodBytes = parts.first, !methodBytes.isEmpty,
            methodBytes.allSatisfy(isTokenByte)
        else { throw Refusal(status: 400, reason: "the request line is not METHOD TARGET VERSION") }
        let method = String(decoding: methodBytes, as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.utf8.count == 8, version.hasPrefix("HTTP/"),
            version.utf8.enumerated().allSatisfy({ index, byte in
                index < 5 || index == 6 ? true : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }), version.utf8[version.utf8.index(version.utf8.startIndex, offsetBy: 6)] == UInt8(ascii: ".")
        else { throw Refusal(status: 400, reason: "no HTTP version") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw Refusal(status: 505, reason: "only HTTP/1.1 and 1.0 are served")
        }
        guard methods.contains(method) else { throw Refusal(status: 501, reason: "method \(method) not served") }
        let targetBytes = parts[1]
        guard targetBytes.first == UInt8(ascii: "/"), targetBytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Refusal(status: 400, reason: "the target is not a path")
        }
        let target = String(decoding: targetBytes, as: UTF8.self)
        let pathEnd = targetBytes.firstIndex(of: UInt8(ascii: "?")) ?? targetBytes.endIndex
        let fragment = targetBytes.firstIndex(of: UInt8(ascii: "#"))
        guard fragment == nil else { throw Refusal(status: 400, reason: "the target has a fragment") }
        var segments: [String] = []
        for segment in targetBytes[..<pathEnd].dropFirst().split(separator: 0x2F, omittingEmptySubsequences: false) {
            segments.append(try decodePercent(segment, plusIsSpace: false))
        }
        var query: [(name: String, value: String)] = []
        if pathEnd < targetBytes.endIndex {
            let pairs = targetBytes[(pathEnd + 1)...].split(separator: UInt8(ascii: "&"))
            for pair in pairs {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let name = try decodePercent(pair[..<equals], plusIsSpace: true)
                let value = equals < pair.endIndex ? try decodePercent(pair[(equals + 1)...], plusIsSpace: true) : ""
                query.append((name, value))
            }
        }
        return HTTPRequestHead(
            method: method, target: target, pathSegments: segments, query: query,
            minorVersion: version == "HTTP/1.1" ? 1 : 0, fields: [], contentLength: 0, keepsAlive: true)
    }

    /// Decodes `%XX` escapes (and `+` as a space in a query): a bad escape, `%00` or invalid UTF-8 is `400`.
    static func decodePercent(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) throws(Refusal) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { throw Refusal(status: 400, reason: "a bad percent escape") }
                let value = high << 4 | low
                guard value != 0 else { throw Refusal(status: 400, reason: "%00 in the target") }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw Refusal(status: 400, reason: "the target is not UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(Refusal) -> (name: String, value: String) {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw Refusal(status: 400, reason: "a folded header line (obs-fold)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[..<colon].allSatisfy(isTokenByte)
        else { throw Refusal(status: 400, reason: "a header line is not NAME: VALUE") }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value.removeFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value.removeLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw Refusal(status: 400, reason: "a control character in a header value")
        }
        return (String(decoding: line[..<colon], as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// Checks `Host`, the body's framing and the connection's persistence, setting `contentLength` and `keepsAlive`.
    private mutating func checkFraming(maximumBody: Int) throws(Refusal) {
        if minorVersion == 1 && values(of: "host").count != 1 {
            throw Refusal(status: 400, reason: "an HTTP/1.1 request needs exactly one Host")
        }
        guard values(of: "transfer-encoding").isEmpty else {
            throw Refusal(status: 400, reason: "Transfer-Encoding is not accepted on a request: send Content-Length")
        }
        var length: Int?
        for value in values(of: "content-length") {
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = item.trimmingSpaces
                guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw Refusal(status: 400, reason: "a Content-Length that is not a number")
                }
                guard digits.utf8.count <= 18, let number = Int(digits) else {
                    throw Refusal(status: 413, reason: "the body is larger than \(maximumBody) bytes")
                }
                guard length == nil || length == number else {
                    throw Refusal(status: 400, reason: "Content-Length values that differ")
                }
                length = number
            }
        }
        if (method == "POST" || method == "PUT") && length == nil {
            throw Refusal(status: 411, reason: "a body needs a Content-Length")
        }
        contentLength = length ?? 0
        let options = values(of: "connection").flatMap { $0.split(separator: ",") }.map {
            $0.trimmingSpaces.lowercased()
        }
        keepsAlive = minorVersion == 1 ? !options.contains("close") : options.contains("keep-alive")
        guard contentLength <= maximumBody else {
            throw Refusal(status: 413, reason: "the body is larger than \(maximumBody) bytes")
        }
    }
}

extension Substring {
    /// The text without surrounding spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
