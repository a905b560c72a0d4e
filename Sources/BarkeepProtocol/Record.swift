/// One `* key=value …` line of a reply: an ordered list of fields with unique keys.
public struct Record: Sendable, Equatable, CustomStringConvertible {
    /// The fields in order.
    public private(set) var fields: [(key: String, value: String)]

    /// An empty record.
    public init() { fields = [] }

    /// A record with these fields; nil values are left out.
    public init(_ fields: KeyValuePairs<String, String?>) {
        self.fields = fields.compactMap { field in field.value.map { (field.key, $0) } }
    }

    /// Appends a field unless `value` is nil.
    public mutating func append(_ key: String, _ value: String?) {
        guard let value else { return }
        fields.append((key, value))
    }

    /// Makes room for `count` fields in all: a record built field by field then grows once.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// The value of `key`, or nil.
    public subscript(key: String) -> String? { fields.first { $0.key == key }?.value }

    /// The record line, without its LF.
    public var encoded: String {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `encoded` (without a newline) to `buffer`, building no string per field: a reply of a thousand
    /// records is written straight into the connection's buffer.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "*"))
        for field in fields {
            buffer.append(UInt8(ascii: " "))
            buffer.append(contentsOf: field.key.utf8)
            buffer.append(UInt8(ascii: "="))
            Quoting.appendValue(field.value, to: &buffer)
        }
    }

    public var description: String { encoded }

    /// Parses a record line (without its LF).
    public init(parsing line: String) throws(ProtocolError) {
        guard line.hasPrefix("* ") || line == "*" else { throw .badReply("a record line starts with '* '") }
        fields = []
        for token in try Quoting.tokenize(String(line.dropFirst())) {
            guard case .keyword(let key, let value) = token else {
                throw .badReply("a record holds only key=value fields")
            }
            fields.append((key, value))
        }
    }

    public static func == (lhs: Record, rhs: Record) -> Bool {
        lhs.fields.map(\.key) == rhs.fields.map(\.key) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }
}
