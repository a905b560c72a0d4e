import BarkeepCore

/// A value of Core's vocabulary that statements write as a SQL literal, so that a status, source, kind or format is
/// spelled once (in Core) and SQL takes it from there. Raw values are Core's own constants, never input, and none
/// holds a quote: interpolating them is safe (STYLE: "constants from Core may be interpolated").
protocol SQLConstant: RawRepresentable where RawValue == String {}

extension SQLConstant {
    /// The stored value as a SQL literal: `'fixed'`.
    var sql: String { "'\(rawValue)'" }

    /// A parenthesised SQL list of the values' literals: `('proposed', 'approved')`.
    static func sqlList(_ values: [Self]) -> String {
        "(" + values.map(\.sql).joined(separator: ", ") + ")"
    }
}

extension FindingStatus: SQLConstant {}
extension FindingSource: SQLConstant {}
extension ScreenKind: SQLConstant {}
extension EventKind: SQLConstant {}
extension ScanFormat: SQLConstant {}
extension SourceRunResult: SQLConstant {}
