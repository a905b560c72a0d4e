/// The formats a scan can be uploaded in.
public enum ScanFormat: String, Sendable, CaseIterable {
    /// The duo_scan scanner's JSON.
    case duoScan = "duo-scan"
    /// SARIF 2.1.0, from any scanner.
    case sarif
    /// The SDK checker's JSON: which symbols the team's SDK declares (SDKCheckParser). Not a scan of the code: it
    /// unblocks items rather than syncing findings.
    case sdkCheck = "sdk-check"
}

/// One finding as a scanner reported it, before Barkeep gives it an identity.
public struct ScanFinding: Sendable, Equatable {
    /// The scanner's rule id (`DUO007`).
    public var rule: String
    /// The rule's title, when the format gives one.
    public var title: String?
    /// One of critical, high, medium, low, info.
    public var severity: String
    /// The path relative to the scanned root.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The source line as reported (trimmed by duo_scan; with its indentation in SARIF).
    public var snippet: String
    /// The scanner's message or advice.
    public var message: String?
    /// SARIF `partialFingerprints` and `fingerprints`, kept as reported (JSON object text), never used as identity.
    public var fingerprints: String?

    /// Creates a finding.
    public init(
        rule: String,
        title: String? = nil,
        severity: String,
        file: String,
        line: Int,
        snippet: String,
        message: String? = nil,
        fingerprints: String? = nil
    ) {
        self.rule = rule
        self.title = title
        self.severity = severity
        self.file = file
        self.line = line
        self.snippet = snippet
        self.message = message
        self.fingerprints = fingerprints
    }
}

/// A whole scanner run as parsed from its file.
public struct ScanReport: Sendable, Equatable {
    /// The format it came in.
    public var format: ScanFormat
    /// The scanner's name (`duo_scan`, `Semgrep OSS`).
    public var tool: String
    /// The scanner's version, when given.
    public var toolVersion: String?
    /// How many source files the scanner read, when it says.
    public var filesScanned: Int?
    /// The app lifecycle duo_scan detected (`scene`, `swiftui-app`, …), when given.
    public var lifecycle: String?
    /// The findings in the order the file lists them.
    public var findings: [ScanFinding]

    /// Creates a report.
    public init(
        format: ScanFormat,
        tool: String,
        toolVersion: String? = nil,
        filesScanned: Int? = nil,
        lifecycle: String? = nil,
        findings: [ScanFinding]
    ) {
        self.format = format
        self.tool = tool
        self.toolVersion = toolVersion
        self.filesScanned = filesScanned
        self.lifecycle = lifecycle
        self.findings = findings
    }
}

extension ScanFormat {
    /// The format an upload that does not say is guessed to be, from its first 4 KiB: SARIF documents carry `"runs"`
    /// and their version; duo_scan's carry `"findings"`; SDK checks `"symbols"` and neither. The one guess of the CLI's
    /// uploads and of an HTTP check without a `format`.
    public static func guessed(from bytes: some Collection<UInt8>) -> ScanFormat {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if head.contains("\"symbols\"") && !head.contains("\"findings\"") && !head.contains("\"runs\"") {
            return .sdkCheck
        }
        return head.contains("\"runs\"") || head.contains("sarif") ? .sarif : .duoScan
    }
}
