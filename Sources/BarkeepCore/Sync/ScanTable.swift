/// A parsed scan in compact form, what the sync works from: the findings as fixed-size rows pointing into the
/// document's own bytes, so a scan costs its bytes plus 28 bytes a finding rather than a string per field.
///
/// A row holds the offset of each string member's opening quote in `bytes` (0 for an absent `title` or `message`:
/// no string starts at a document's first byte), the line and the severity. A string is read back from its quote
/// to its closing quote; one holding an escape is decoded when asked for (`isEscaped`). A table made from a
/// `ScanReport` (SARIF, or findings built in code) writes its strings as JSON string literals into bytes of its own,
/// so both kinds read the same way.
public struct ScanTable: Sendable {
    /// One finding: offsets of its strings' opening quotes in `bytes`, 0 when absent.
    public struct Row: Sendable, Equatable {
        /// The rule id.
        public var rule: UInt32
        /// The rule's title; 0 when absent.
        public var title: UInt32
        /// The file.
        public var file: UInt32
        /// The snippet.
        public var snippet: UInt32
        /// The message or advice; 0 when absent.
        public var message: UInt32
        /// The 1-based line.
        public var line: UInt32
        /// The severity.
        public var severity: Severity
    }

    /// The largest document a table can point into: offsets are 32-bit.
    public static let maximumBytes = Int(UInt32.max)

    /// The format the scan came in.
    public var format: ScanFormat
    /// The scanner's name.
    public var tool: String
    /// The scanner's version, when given.
    public var toolVersion: String?
    /// How many source files the scanner read, when it says.
    public var filesScanned: Int?
    /// The app lifecycle duo_scan detected, when given.
    public var lifecycle: String?
    /// The bytes the rows point into.
    public let bytes: [UInt8]
    /// The findings in the document's order.
    public internal(set) var rows: [Row]
    /// SARIF's fingerprints (JSON object text) by finding, when any finding has them; empty otherwise.
    public internal(set) var fingerprints: [String?] = []

    /// The findings' count.
    public var count: Int { rows.count }

    /// A table of `rows` pointing into `bytes`.
    init(
        format: ScanFormat, tool: String, toolVersion: String?, filesScanned: Int?, lifecycle: String?,
        bytes: [UInt8], rows: [Row]
    ) {
        self.format = format
        self.tool = tool
        self.toolVersion = toolVersion
        self.filesScanned = filesScanned
        self.lifecycle = lifecycle
        self.bytes = bytes
        self.rows = rows
    }

    /// The table of a report's findings, their strings written into bytes of its own. A severity that is not one of
    /// Core's is read as `medium` (the parsers produce none).
    public init(_ report: ScanReport) {
        var bytes: [UInt8] = [0]
        var rows: [Row] = []
        rows.reserveCapacity(report.findings.count)
        func append(_ text: String?) -> UInt32 {
            guard let text else { return 0 }
            let quote = UInt32(truncatingIfNeeded: bytes.count)
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
            return quote
        }
        for finding in report.findings {
            rows.append(
                Row(
                    rule: append(finding.rule), title: append(finding.title), file: append(finding.file),
                    snippet: append(finding.snippet), message: append(finding.message),
                    line: UInt32(clamping: finding.line), severity: Severity(rawValue: finding.severity) ?? .medium))
        }
        self.init(
            format: report.format, tool: report.tool, toolVersion: report.toolVersion,
            filesScanned: report.filesScanned, lifecycle: report.lifecycle, bytes: bytes, rows: rows)
        if report.findings.contains(where: { $0.fingerprints != nil }) {
            fingerprints = report.findings.map(\.fingerprints)
        }
    }

    // MARK: - Reading strings

    /// Calls `body` with the UTF-8 bytes of the string whose quote is at `quote` (escapes decoded); with no bytes
    /// for 0, an absent string.
    public func withText<Result>(at quote: UInt32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        guard quote != 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let (range, isEscaped) = bytes.withUnsafeBufferPointer {
            JSONStreamReader.content(ofStringAt: Int(quote), in: $0)
        }
        guard isEscaped else {
            return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        var value = JSONStreamReader.decodedString(at: Int(quote), in: bytes)
        return try value.withUTF8 { try body($0) }
    }

    /// The string whose quote is at `quote`; nil for 0.
    public func string(at quote: UInt32) -> String? {
        guard quote != 0 else { return nil }
        return withText(at: quote) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the string whose quote is at `quote` has the same bytes as `text` (false when either is absent).
    public func text(at quote: UInt32, equals text: String?) -> Bool {
        guard var text else { return false }
        return text.withUTF8 { self.text(at: quote, equalsUTF8: $0) }
    }

    /// Whether the string whose quote is at `quote` has the bytes `utf8` (false when either is absent).
    public func text(at quote: UInt32, equalsUTF8 utf8: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard quote != 0, let utf8 else { return false }
        return withText(at: quote) { utf8.elementsEqual($0) }
    }

    /// Finding `index` with a string per field, for code that wants `ScanFinding`s.
    public func finding(at index: Int) -> ScanFinding {
        let row = rows[index]
        return ScanFinding(
            rule: string(at: row.rule) ?? "", title: string(at: row.title), severity: row.severity.rawValue,
            file: string(at: row.file) ?? "", line: Int(row.line), snippet: string(at: row.snippet) ?? "",
            message: string(at: row.message), fingerprints: index < fingerprints.count ? fingerprints[index] : nil)
    }

    /// The whole scan as a `ScanReport`.
    public var report: ScanReport {
        ScanReport(
            format: format, tool: tool, toolVersion: toolVersion, filesScanned: filesScanned, lifecycle: lifecycle,
            findings: rows.indices.map(finding(at:)))
    }
}
