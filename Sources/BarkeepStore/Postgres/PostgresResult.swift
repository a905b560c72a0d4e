import CLibpq

/// A statement's rows kept in libpq's result and read in place (`PostgresConnection.queryResult`): values are text,
/// as `PostgresRows` holds them, but no string is made unless asked for. Not thread-safe: one thread reads it, and
/// it frees the result when it goes away.
public final class PostgresResult {
    private let result: OpaquePointer?

    /// The rows of `result`, which this object now owns.
    init(_ result: OpaquePointer) {
        self.result = result
        rowCount = Int(PQntuples(result))
    }

    /// A result without rows (a statement that returned none).
    init() {
        result = nil
        rowCount = 0
    }

    deinit {
        if let result { PQclear(result) }
    }

    /// The number of rows.
    public let rowCount: Int

    /// Whether the value at `row`, `column` is SQL NULL.
    public func isNull(_ row: Int, _ column: Int) -> Bool {
        guard let result else { return true }
        return PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    /// Calls `body` with the UTF-8 text of the value at `row`, `column` (empty for NULL), valid during the call.
    public func withBytes<T>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T
    {
        guard let result, let value = PQgetvalue(result, Int32(row), Int32(column)) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let count = Int(PQgetlength(result, Int32(row), Int32(column)))
        return try value.withMemoryRebound(to: UInt8.self, capacity: count) {
            try body(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// The value at `row`, `column` as a whole number; nil for NULL or any other text.
    public func integer(_ row: Int, _ column: Int) -> Int64? {
        guard !isNull(row, column) else { return nil }
        return withBytes(row, column) { digits in
            guard let first = digits.first else { return nil }
            let isNegative = first == UInt8(ascii: "-")
            let magnitude = isNegative ? UnsafeBufferPointer(rebasing: digits.dropFirst()) : digits
            guard !magnitude.isEmpty, magnitude.count <= 18 else {
                return Int64(String(decoding: digits, as: UTF8.self))
            }
            var value: Int64 = 0
            for digit in magnitude {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(digit - UInt8(ascii: "0"))
            }
            return isNegative ? -value : value
        }
    }

    /// The value at `row`, `column` as a string; nil for NULL.
    public func string(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column) else { return nil }
        return withBytes(row, column) { String(decoding: $0, as: UTF8.self) }
    }
}
