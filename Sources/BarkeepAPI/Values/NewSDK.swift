import BarkeepCore
import BarkeepProtocol

/// The SDK a project moves to (SDK SET's VERSION): an `SDKVersion` refused in SDK SET's words.
public struct NewSDK: WireValue, Equatable {
    /// The version.
    public var version: SDKVersion

    /// The SDK `version`.
    public init(_ version: SDKVersion) { self.version = version }

    /// `27`, `27.1` or `27.1.2`.
    public init(wire: String) throws(ValueProblem) {
        guard let version = SDKVersion(wire) else {
            throw ValueProblem("the SDK must be a version such as 27.1, not \(ValueExcerpt.quoted(wire))")
        }
        self.version = version
    }
    /// Its text.
    public var wire: String { version.description }
    /// A JSON string holding a version.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem("the SDK must be a version such as 27.1") }
        try self.init(wire: text)
    }
    /// Its text.
    public var json: Any { version.description }
    /// A version's schema.
    public static var schema: ValueSchema { SDKVersion.schema }
    /// SDKVersion's example.
    public static var example: NewSDK { NewSDK(SDKVersion.example) }
}
