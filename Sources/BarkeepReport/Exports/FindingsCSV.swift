import BarkeepAPI
import Foundation

/// `findings --format csv`: one row per `finding` record, for spreadsheets.
///
/// RFC 4180: a header row, then a row per finding, each ended by CR LF; a field holding a comma, a double quote, a
/// CR or an LF is enclosed in double quotes, its quotes doubled; UTF-8, without a byte order mark. A record's fields
/// that are not columns are ignored, and a column whose field the record lacks is empty (`assignee` before the
/// daemon knows it).
///
/// Against formula injection, a field that starts with `=`, `+`, `-`, `@`, a tab or a CR gets a leading apostrophe
/// (`'=HYPERLINK(…)`), so that a spreadsheet shows it as text rather than evaluating it: snippets, titles and reasons
/// are written by whoever controls the scanned code or the triage. The apostrophe is part of the exported value.
public enum FindingsCSV {
    /// The columns: the header and the record's value as the wire writes it (empty when absent).
    public static let columns: [(header: String, value: @Sendable (FindingRecord) -> String)] = [
        ("number", { String($0.id) }), ("status", { $0.status.rawValue }), ("severity", \.severity),
        ("rule", { $0.rule ?? "" }), ("title", { $0.title ?? "" }), ("screen", \.screen),
        ("file", { $0.file ?? "" }), ("line", { text($0.line) }), ("snippet", { $0.snippet ?? "" }),
        ("reason", { $0.reason ?? "" }), ("step", { text($0.step) }),
        // Space-separated: a comma would only make the cell quoted.
        ("needs", { ($0.needs ?? []).joined(separator: " ") }), ("first_seen_run", { text($0.firstSeenRun) }),
        ("last_seen_run", { text($0.lastSeenRun) }), ("assignee", { $0.assignee ?? "" }),
    ]

    /// The characters that make a spreadsheet read a cell as a formula when it starts with one.
    public static let formulaPrefixes: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// The whole document: the header row and a row per record, in the records' order.
    public static func document(_ records: [FindingRecord]) -> String {
        var text = row(columns.map(\.header))
        for record in records {
            text += row(columns.map { column in column.value(record) })
        }
        return text
    }

    /// A number as the wire writes it; empty when absent.
    private static func text(_ number: Int?) -> String { number.map(String.init) ?? "" }

    /// One row: the fields, formula-guarded and quoted where needed, separated by commas, ended by CR LF.
    public static func row(_ fields: [String]) -> String {
        fields.map { field(guardingFormula($0)) }.joined(separator: ",") + "\r\n"
    }

    /// `value` as an RFC 4180 field: in double quotes, its quotes doubled, when it holds a comma, a double quote, a
    /// CR or an LF; as it is otherwise.
    public static func field(_ value: String) -> String {
        // By scalar: a CR LF pair is one Character, which a comparison with "\n" alone would miss.
        guard value.unicodeScalars.contains(where: { [",", "\"", "\r", "\n"].contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `value` with a leading apostrophe when it starts with a character in `formulaPrefixes`.
    public static func guardingFormula(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, formulaPrefixes.contains(Character(first)) else { return value }
        return "'" + value
    }
}
