import BarkeepProtocol
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
    /// The columns: the header and the record key each is read from.
    public static let columns: [(header: String, key: String)] = [
        ("number", "id"), ("status", "status"), ("severity", "severity"), ("rule", "rule"), ("title", "title"),
        ("screen", "screen"), ("file", "file"), ("line", "line"), ("snippet", "snippet"), ("reason", "reason"),
        ("step", "step"), ("needs", "needs"), ("first_seen_run", "first-seen-run"),
        ("last_seen_run", "last-seen-run"), ("assignee", "assignee"),
    ]

    /// The characters that make a spreadsheet read a cell as a formula when it starts with one.
    public static let formulaPrefixes: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// The whole document: the header row and a row per record, in the records' order.
    public static func document(_ records: [Record]) -> String {
        var text = row(columns.map(\.header))
        for record in records {
            text += row(columns.map { column in value(of: column.key, in: record) })
        }
        return text
    }

    /// One column's value: `needs` space-separated (a comma would only make the cell quoted), others as sent.
    private static func value(of key: String, in record: Record) -> String {
        let value = record[key] ?? ""
        return key == "needs" ? value.split(separator: ",").joined(separator: " ") : value
    }

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
