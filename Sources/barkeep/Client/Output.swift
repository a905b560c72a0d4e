import BarkeepCore
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How the CLI writes: aligned tables and `key: value` lists for people, JSON for scripts, colour only on a
/// terminal that wants it. Everything written for people goes through `plain` (TerminalText): a value from the
/// server never reaches the terminal with control characters or bidirectional overrides; JSON escapes them itself.
enum Output {
    /// Colour only when standard output is a terminal, `NO_COLOR` is unset (https://no-color.org) and the
    /// terminal is not `dumb`.
    static let isColored: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }()

    /// The columns of the terminal standard output is, for views that fit themselves to it: `COLUMNS` when set,
    /// else the terminal's own size; nil when standard output is not a terminal (nothing is cut then).
    static var terminalWidth: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        if let columns = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? ""), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// `text` as a terminal may show it: control characters and bidirectional overrides written as `<U+XXXX>`.
    static func plain(_ text: String) -> String { TerminalText.neutralized(text) }

    /// `text` (made `plain`) in bold when colour is on.
    static func bold(_ text: String) -> String { isColored ? "\u{1B}[1m\(plain(text))\u{1B}[0m" : plain(text) }

    /// `text` (made `plain`) dimmed when colour is on.
    static func dim(_ text: String) -> String { isColored ? "\u{1B}[2m\(plain(text))\u{1B}[0m" : plain(text) }

    /// Prints rows under headers, each column as wide as its widest cell.
    static func table(_ headers: [String], _ rows: [[String]]) {
        let headers = headers.map(plain)
        let rows = rows.map { $0.map(plain) }
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        print(bold(line(headers)))
        for row in rows { print(line(row)) }
    }

    /// Prints `label: value` lines, labels aligned; nil values are left out.
    static func fields(_ pairs: [(String, String?)]) {
        let present = pairs.compactMap { pair in pair.1.map { (plain(pair.0), plain($0)) } }
        let width = present.map(\.0.count).max() ?? 0
        for (label, value) in present {
            print(bold(label + ":") + String(repeating: " ", count: width - label.count + 1) + value)
        }
    }

    /// `1 finding`, `3 findings`.
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// Prints a JSON value on one line, keys sorted.
    static func json(_ value: Any) throws {
        print(try Record.jsonText(value))
        fflush(nil)
    }
}
