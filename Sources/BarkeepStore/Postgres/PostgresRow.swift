/// The rows a statement returned, copied out of libpq so they outlive the connection's next statement.
///
/// A value type: safe to pass between threads.
public struct PostgresRows: Sendable, RandomAccessCollection {
    /// Column names in result order.
    public let columns: [String]
    /// The command tag's row count (`INSERT 0 3` → 3), or nil for statements without one.
    public let affectedRows: Int?
    private let values: [[String?]]

    init(columns: [String], values: [[String?]], affectedRows: Int?) {
        self.columns = columns
        self.values = values
        self.affectedRows = affectedRows
    }

    public var startIndex: Int { values.startIndex }
    public var endIndex: Int { values.endIndex }

    public subscript(position: Int) -> PostgresRow {
        PostgresRow(columns: columns, values: values[position])
    }
}

/// One row of a result, decoded by column name or position.
public struct PostgresRow: Sendable {
    /// Column names in result order.
    public let columns: [String]
    /// The raw text of each column; nil for SQL NULL.
    public let values: [String?]

    /// Decodes a non-null column; throws when it is NULL or not a valid `T`.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = try decodeIfPresent(column, as: type) else {
            throw StoreError.decoding(column: column, expected: "non-null \(T.self)")
        }
        return value
    }

    /// Decodes a nullable column: nil for NULL, throws when the text is not a valid `T`.
    public func decodeIfPresent<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T? {
        guard let index = columns.firstIndex(of: column) else { throw StoreError.noSuchColumn(column) }
        return try decodeIfPresent(at: index, as: type)
    }

    /// Decodes a non-null column by position.
    public func decode<T: PostgresDecodable>(at index: Int, as type: T.Type = T.self) throws -> T {
        guard let value = try decodeIfPresent(at: index, as: type) else {
            throw StoreError.decoding(column: columnName(index), expected: "non-null \(T.self)")
        }
        return value
    }

    /// Decodes a nullable column by position.
    public func decodeIfPresent<T: PostgresDecodable>(at index: Int, as type: T.Type = T.self) throws -> T? {
        guard values.indices.contains(index) else { throw StoreError.noSuchColumn("#\(index)") }
        guard let text = values[index] else { return nil }
        guard let value = T(postgresText: text) else {
            throw StoreError.decoding(column: columnName(index), expected: "\(T.self)")
        }
        return value
    }

    private func columnName(_ index: Int) -> String {
        columns.indices.contains(index) ? columns[index] : "#\(index)"
    }
}
