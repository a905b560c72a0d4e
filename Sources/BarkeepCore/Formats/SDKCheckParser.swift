import Foundation

/// One symbol as the SDK checker reported it.
public struct SDKCheckSymbol: Sendable, Equatable {
    /// The symbol (`axisBehavior`).
    public var symbol: String
    /// Whether the checked SDK declares it.
    public var found: Bool
    /// The iOS version its declaration is available from, when found and stated (`iOS 27.1` → 27.1).
    public var availableFrom: SDKVersion?

    /// A checked symbol.
    public init(symbol: String, found: Bool, availableFrom: SDKVersion? = nil) {
        self.symbol = symbol
        self.found = found
        self.availableFrom = availableFrom
    }
}

/// What the SDK checker found in the team's SDK.
public struct SDKCheckReport: Sendable, Equatable {
    /// The checker's name (`tool`), or `sdk-check` when it gives none.
    public var tool: String
    /// Its version.
    public var toolVersion: String?
    /// The SDK it checked (`sdk`), when it says; otherwise the project's SDK is assumed.
    public var sdk: SDKVersion?
    /// The symbols, in document order; a symbol listed twice keeps its last entry.
    public var symbols: [SDKCheckSymbol]

    /// A report.
    public init(tool: String, toolVersion: String?, sdk: SDKVersion?, symbols: [SDKCheckSymbol]) {
        self.tool = tool
        self.toolVersion = toolVersion
        self.sdk = sdk
        self.symbols = symbols
    }
}

/// Reads the SDK checker's JSON: an object with `symbols`, an array of `{symbol, found, declaration}` where
/// `declaration.availability` says from which iOS version the symbol is available (`iOS 27.1`,
/// `@available(iOS 27.1, *)` or `27.1`). Optional: `tool`, `version`, `sdk` (the SDK checked, e.g. `27.1`).
///
/// `symbol` must be a symbol name (letters, digits, `_ . : ( )`), `found` a boolean. An availability that names no
/// iOS version (`macOS 17`) is read as unknown. Anything else malformed throws `CoreError.invalidDocument` naming
/// the place (`symbols[3].found: expected true or false`).
public enum SDKCheckParser {
    /// Parses a whole SDK check document, in two passes of `JSONStreamReader.readTwice`: the first checks
    /// everything and keeps nothing, the second keeps the symbols.
    public static func parse(_ bytes: [UInt8]) throws(CoreError) -> SDKCheckReport {
        try JSONStreamReader.read(bytes) { start throws(JSONProblem) in
            var (report, symbols) = try JSONStreamReader.readTwice {
                (symbols: inout [SDKCheckSymbol]?) throws(JSONProblem) in
                var reader = start
                return try read(&reader, into: &symbols)
            }
            report.symbols = symbols
            return report
        }
    }

    /// Reads the document; appends each symbol to `symbols` unless it is nil. Returns the report without its
    /// symbols, and how many the document holds.
    private static func read(
        _ reader: inout JSONStreamReader,
        into symbols: inout [SDKCheckSymbol]?
    ) throws(JSONProblem) -> (header: SDKCheckReport, count: Int) {
        var tool: String?
        var toolVersion: String?
        var sdk: SDKVersion?
        var count: Int?
        try reader.readDocument { reader, key throws(JSONProblem) in
            switch key {
            case "tool": tool = try reader.readString()
            case "version": toolVersion = try reader.readString()
            case "sdk":
                guard let text = try reader.readString() else { return }
                guard let version = SDKVersion(text) else {
                    throw JSONProblem(problem: "expected a version such as 27.1")
                }
                sdk = version
            case "symbols": count = try reader.readElements(into: &symbols, symbol(from:))
            default: try reader.skipValue()
            }
        }
        guard let count else { throw JSONProblem(at: .key("symbols"), problem: JSONProblem.missing) }
        let report = SDKCheckReport(tool: tool ?? "sdk-check", toolVersion: toolVersion, sdk: sdk, symbols: [])
        return (report, count)
    }

    private static func symbol(from reader: inout JSONStreamReader) throws(JSONProblem) -> SDKCheckSymbol {
        var name: String?
        var found: Bool?
        var availability: String?
        try reader.readObject { reader, key throws(JSONProblem) in
            switch key {
            case "symbol":
                name = try reader.readString()
                if let name, !Names.isValidSymbol(name) {
                    throw JSONProblem(problem: "not a symbol name (letters, digits, '_', '.', ':', '(' or ')')")
                }
            case "found": found = try reader.readBoolean()
            case "declaration":
                guard try reader.peekKind() != .null else { return try reader.skipValue() }
                try reader.readObject { reader, key throws(JSONProblem) in
                    if key == "availability" { availability = try reader.readString() } else { try reader.skipValue() }
                }
            default: try reader.skipValue()
            }
        }
        guard let name else { throw JSONProblem(at: .key("symbol"), problem: JSONProblem.missing) }
        guard let found else { throw JSONProblem(at: .key("found"), problem: JSONProblem.missing) }
        return SDKCheckSymbol(
            symbol: name,
            found: found,
            availableFrom: found ? availability.flatMap(iOSVersion(in:)) : nil
        )
    }

    /// The iOS version an availability text names: the version after `iOS` (`@available(iOS 27.1, *)`,
    /// `iOS 27.1+`), or the whole text when it is a version. nil otherwise.
    static func iOSVersion(in availability: String) -> SDKVersion? {
        let text = availability.trimmingCharacters(in: .whitespaces)
        if let version = SDKVersion(text) { return version }
        guard let range = text.range(of: "iOS") else { return nil }
        let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        return SDKVersion(String(digits.hasSuffix(".") ? digits.dropLast() : digits))
    }
}
