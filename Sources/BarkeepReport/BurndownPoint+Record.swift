import BarkeepCore
import BarkeepProtocol

/// Burndown points (BarkeepCore's `BurndownPoint`) as a `BURNDOWN PROJECT by=run|day|week` reply carries them: one
/// record each with `label` (`run 12`, `2026-11-29` or `2026-W48`), `at` (time), `needs-work` and `blocked`.
extension BurndownPoint: RecordDecodable {
    /// `burndown`.
    public static let recordType = "burndown"

    /// Reads a burndown record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        self.init(
            label: try fields.string("label"), at: try fields.time("at"), needsWork: try fields.count("needs-work"),
            blocked: try fields.count("blocked"))
    }
}
