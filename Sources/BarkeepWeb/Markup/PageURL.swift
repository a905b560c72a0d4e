/// A URL of the dashboard (same origin, so a path): path segments and query values percent-encoded, so no value can
/// break out of its segment or parameter. `href`, `src` and `action` take only these.
public struct PageURL: Sendable, Equatable {
    /// The path's segments, decoded.
    public var segments: [String]
    /// The query's parameters, decoded, in order.
    public var query: [QueryItem]
    /// A fragment (`main` for `#main`); nil for none.
    public var fragment: String?

    /// One parameter of a query.
    public struct QueryItem: Sendable, Equatable {
        /// The key.
        public var key: String
        /// The value.
        public var value: String
        /// `key=value`.
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The URL of `segments` (none: `/`) with `query`.
    public init(_ segments: [String], query: [QueryItem] = [], fragment: String? = nil) {
        self.segments = segments
        self.query = query
        self.fragment = fragment
    }

    /// A link to a fragment of this page (`#main`).
    public static func fragment(_ name: String) -> PageURL { PageURL([], fragment: name) }

    /// The encoded form: `/projects/My%20App/findings?severity=high`, or `#main` for a bare fragment.
    public var text: String {
        var result = ""
        if !(segments.isEmpty && query.isEmpty && fragment != nil) {
            result = "/" + segments.map(Self.encodeSegment).joined(separator: "/")
        }
        if !query.isEmpty {
            result += "?" + query.map { Self.encode($0.key) + "=" + Self.encode($0.value) }.joined(separator: "&")
        }
        if let fragment { result += "#" + Self.encode(fragment) }
        return result
    }

    /// This URL with `key` set to `value` (replacing every earlier value), or removed when `value` is nil.
    public func setting(_ key: String, to value: String?) -> PageURL {
        var copy = self
        copy.query.removeAll { $0.key == key }
        if let value { copy.query.append(QueryItem(key, value)) }
        return copy
    }

    /// The first value of `key` in the query.
    public func value(of key: String) -> String? { query.first { $0.key == key }?.value }

    /// A path segment encoded; `.` and `..` with their dots encoded too, so no value walks up the path.
    static func encodeSegment(_ value: String) -> String {
        value == "." || value == ".." ? String(repeating: "%2E", count: value.count) : encode(value)
    }

    /// Every byte but the unreserved ones (RFC 3986: letters, digits, `-._~`) as `%XX` of its UTF-8.
    static func encode(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0xF)])
            }
        }
        return result
    }

    private static let hexDigits = Array("0123456789ABCDEF")
}
