import BarkeepAPI
import BarkeepCore

/// A finding as the readiness report and the exports list it: the view of a typed `finding` record of `FINDINGS`
/// (BarkeepAPI's `FindingRecord`), its source and severity read into Core's types once.
public struct ReportFinding: Sendable, Equatable {
    /// `finding`.
    public static let recordType = "finding"

    /// Its number in the project (the record's `id`), given once and never reused: `F-1` is number 1.
    public var number: Int
    /// Scanner or manual.
    public var source: FindingSource
    /// The scanner rule (`DUO007`), for scanner findings.
    public var rule: String?
    /// The readiness tier (0 blockers … 3 richer adoption), when the rule has one.
    public var tier: Int?
    /// How bad it is.
    public var severity: Severity
    /// The file it is in.
    public var file: String?
    /// The line it is on.
    public var line: Int?
    /// The code the scanner pointed at.
    public var snippet: String?
    /// Where it stands.
    public var status: FindingStatus
    /// Why (for blocked, declined, kept).
    public var reason: String?
    /// The screen that owns it, or `unmapped`.
    public var screen: String
    /// A manual item's title, or the rule's.
    public var title: String?
    /// Its checklist step, 1 to 12.
    public var step: Int?
    /// SDK symbols its fix needs.
    public var needs: [String]
    /// The iOS version its fix must be gated on with `if #available`, when above the deployment target.
    public var gate: SDKVersion?
    /// For a verified finding that a scan after its verification still reports, the latest run that did (the
    /// record's `still-reported-run`); nil otherwise.
    public var stillReportedRun: Int?

    /// The screen key the protocol uses for findings no screen owns.
    public static let unmappedScreen = AuditArea.unmapped

    /// A finding.
    public init(
        number: Int, source: FindingSource, rule: String? = nil, tier: Int? = nil,
        severity: Severity = .medium, file: String? = nil, line: Int? = nil, snippet: String? = nil,
        status: FindingStatus = .proposed, reason: String? = nil, screen: String = ReportFinding.unmappedScreen,
        title: String? = nil, step: Int? = nil, needs: [String] = [], gate: SDKVersion? = nil,
        stillReportedRun: Int? = nil
    ) {
        self.number = number
        self.source = source
        self.rule = rule
        self.tier = tier
        self.severity = severity
        self.file = file
        self.line = line
        self.snippet = snippet
        self.status = status
        self.reason = reason
        self.screen = screen
        self.title = title
        self.step = step
        self.needs = needs
        self.gate = gate
        self.stillReportedRun = stillReportedRun
    }

    /// The finding of a typed `finding` record (FINDINGS), its source, severity, tier and step checked once.
    public init(_ record: FindingRecord) throws(ReportError) {
        let type = Self.recordType
        if let tier = record.tier, !(0...3).contains(tier) {
            throw .badValue(record: type, key: "tier", value: String(tier), expected: "a tier from 0 to 3")
        }
        if let step = record.step, ChecklistStep.numbered(step) == nil {
            throw .badValue(
                record: type, key: "step", value: String(step),
                expected:
                    "a step number from \(ChecklistStep.numbers.lowerBound) to \(ChecklistStep.numbers.upperBound)")
        }
        self.init(
            number: record.id,
            source: try ReportValues.choice(record.source, as: FindingSource.self, record: type, key: "source"),
            rule: ReportValues.nonEmpty(record.rule), tier: record.tier,
            severity: try ReportValues.choice(record.severity, as: Severity.self, record: type, key: "severity"),
            file: ReportValues.nonEmpty(record.file), line: record.line,
            // A snippet may legitimately be white space; only an absent field is no snippet.
            snippet: record.snippet, status: record.status, reason: ReportValues.nonEmpty(record.reason),
            screen: ReportValues.nonEmpty(record.screen) ?? Self.unmappedScreen,
            title: ReportValues.nonEmpty(record.title), step: record.step, needs: record.needs ?? [],
            gate: record.gate, stillReportedRun: record.stillReportedRun)
    }

    /// `F-7`: the label people quote, the finding's number in the project.
    public var itemID: String { FindingNumber.label(number) }

    /// The scanner's way of naming it, `DUO007:Sources/Inbox.swift:12`; nil for manual items.
    public var scannerReference: String? {
        guard source == .scanner else { return nil }
        var reference = rule ?? "?"
        if let file {
            reference += ":" + file
            if let line { reference += ":\(line)" }
        }
        return reference
    }

    /// The readiness tier the report files it under: its own tier; else a scanner finding is tier 3, a manual
    /// item of a checklist step tier 2 (bars), and a manual item without a step (what a failed pose creates) tier 1.
    public var reportTier: Int {
        if let tier { return tier }
        switch source {
        case .scanner: return 3
        case .manual: return step == nil ? 1 : 2
        }
    }
}
