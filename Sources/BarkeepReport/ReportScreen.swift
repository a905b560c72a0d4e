import BarkeepCore
import BarkeepProtocol

/// A row of the project's screens as the readiness report needs it: a `screen` record of `SCREEN LIST`, read for its
/// kind and for which components each screen uses (`STATUS` leaves components out).
public struct ReportScreen: Sendable, Equatable, RecordDecodable {
    /// `screen`.
    public static let recordType = "screen"

    /// Its key.
    public var key: String
    /// A screen, a component or the app area.
    public var kind: ScreenKind
    /// Who owns it.
    public var owner: String?
    /// For a screen, the components it uses; for a component, the screens using it; by key.
    public var uses: [String]

    /// A row.
    public init(key: String, kind: ScreenKind = .screen, owner: String? = nil, uses: [String] = []) {
        self.key = key
        self.kind = kind
        self.owner = owner
        self.uses = uses
    }

    /// Reads a `screen` record of `SCREEN LIST`.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        key = try fields.string("key")
        kind = fields.optionalString("kind") == nil ? .screen : try fields.choice("kind", as: ScreenKind.self)
        owner = fields.optionalString("owner")
        uses = fields.list("uses").sorted()
    }
}
