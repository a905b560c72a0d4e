import BarkeepCore
import BarkeepProtocol

extension ScanFormat: WireValue {
    /// One of the formats' names; anything else refused as INGEST always refused it (`format must be duo-scan or
    /// sarif or sdk-check`).
    public init(wire: String) throws(ValueProblem) {
        guard let format = ScanFormat(rawValue: wire) else {
            throw ValueProblem(predicate: "must be " + Self.allCases.map(\.rawValue).joined(separator: " or "))
        }
        self = format
    }
    /// Its name.
    public var wire: String { rawValue }
    /// A JSON string holding one of the names.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else {
            throw ValueProblem(predicate: "must be " + Self.allCases.map(\.rawValue).joined(separator: " or "))
        }
        try self.init(wire: text)
    }
    /// Its name.
    public var json: Any { rawValue }
    /// A string of the names.
    public static var schema: ValueSchema { .string(values: allCases.map(\.rawValue)) }
    /// duo_scan's JSON.
    public static var example: ScanFormat { .duoScan }
}
