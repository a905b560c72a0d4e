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
    /// Parses a whole SDK check document.
    public static func parse(_ bytes: [UInt8]) throws(CoreError) -> SDKCheckReport {
        let root = try JSONObjectReader.parseDocument(bytes)
        do {
            return try report(from: root)
        } catch {
            throw error.coreError
        }
    }

    private static func report(from root: JSONObjectReader) throws(JSONProblem) -> SDKCheckReport {
        let tool = try root.string("tool") ?? "sdk-check"
        let toolVersion = try root.string("version")
        var sdk: SDKVersion?
        if let text = try root.string("sdk") {
            guard let version = SDKVersion(text) else {
                throw JSONProblem(at: .key("sdk"), problem: "expected a version such as 27.1")
            }
            sdk = version
        }
        let elements = try root.requiredArray("symbols")
        var symbols: [SDKCheckSymbol] = []
        var index = 0
        do {
            while index < elements.count {
                symbols.append(try symbol(from: JSONObjectReader(elements[index])))
                index += 1
            }
        } catch {
            throw error.inside(.key("symbols"), .index(index))
        }
        return SDKCheckReport(tool: tool, toolVersion: toolVersion, sdk: sdk, symbols: symbols)
    }

    private static func symbol(from object: JSONObjectReader) throws(JSONProblem) -> SDKCheckSymbol {
        let name = try object.requiredString("symbol")
        guard Names.isValidSymbol(name) else {
            throw JSONProblem(
                at: .key("symbol"), problem: "not a symbol name (letters, digits, '_', '.', ':', '(' or ')')")
        }
        let found = try object.requiredBoolean("found")
        let availability = try object.string(in: "declaration", "availability")
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
