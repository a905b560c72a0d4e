import BarkeepCore
import BarkeepProtocol

/// The filter language of the commands that select findings (FINDINGS; FINDING SET and FINDING ASSIGN with
/// `where=yes`), declared once: its keys, their documentation and JSON names. The values travel as the wire writes
/// them; Core's `FindingQuery.parse` reads them (and words every refusal), so the language's rules stay in Core.
public struct FindingFilters: WireFields {
    /// `status=S[,S…]`: statuses, `open` or `all`.
    public var status: String?
    /// `severity=S[,S…]`.
    public var severity: String?
    /// `rule=R[,R…]`.
    public var rule: String?
    /// `screen=KEY[,KEY…]`.
    public var screen: String?
    /// `owner=NAME`.
    public var owner: String?
    /// `assignee=NAME|none`.
    public var assignee: String?
    /// `source=scanner|manual`.
    public var source: String?
    /// `step=N|KEY`.
    public var step: String?
    /// `file=PATH`.
    public var file: String?
    /// `blocked=yes|no`.
    public var blocked: String?
    /// `new-in=RUN`.
    public var newIn: String?

    /// No filter: the findings that need work.
    public init() {}

    /// The filters of `keywords` (the wire's keys; others ignored).
    public init(keywords: [(key: String, value: String)]) {
        let values = Dictionary(keywords.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        // Every filter's value is text on the wire: reading them cannot fail.
        self =
            (try? FindingFilters(
                reading: { values[$0] }, version: ProtocolVersion.supported.upperBound, context: "filters"))
            ?? FindingFilters()
    }

    /// The filters as wire keys, in the order of the fields.
    public var keywords: [(key: String, value: String)] {
        record(version: ProtocolVersion.supported.upperBound).fields
    }

    /// The query they make; what FindingQuery refuses is `invalidArgument` naming the key.
    public func query() throws(CoreError) -> FindingQuery { try FindingQuery.parse(keywords: keywords) }

    /// The fields, in the order of FindingQuery.keys (the walk checks they agree). The summaries are the CLI's help.
    /// Each value travels as the wire's text; in JSON a list is an array, `blocked` a boolean, `step` a number or a
    /// key and `new-in` a run's number (FilterText), with the schema that says so.
    public static let fields: [Field<FindingFilters>] = [
        Field(
            "status", \.statusList,
            "Only these statuses: open (needs work; the default), all, "
                + FindingStatus.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        Field(
            "severity", \.severityList,
            "Only these severities: " + Severity.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        Field("rule", \.ruleList, "Only these rules (DUO003,DUO007)."),
        Field(
            "screen", \.screenList,
            "Only the findings counting for these screens (their own and their components'); 'unmapped' for "
                + "no screen's."),
        Field(
            "owner", \.owner,
            "Only the findings counting for the screens NAME owns; '\(ScreenOwner.nobody)': those no one owns."
        ).withSchema(.string(minLength: 1)),
        Field("assignee", \.assignee, "Only the findings assigned to NAME; 'none': to no one.")
            .withSchema(.string(minLength: 1)),
        Field("source", \.sourceWord, "Only scanner findings, or only manual items."),
        Field(
            "step", \.stepName, "Only the findings of checklist step N (\(ChecklistStep.numbersSpoken), or its key)."),
        Field(
            "file", \.file,
            "Only the file PATH and the files under PATH/ (only those with a trailing /); no globs."
        ).withSchema(.string(minLength: 1)),
        Field("blocked", \.blockedFlag, "Only the findings blocked on the SDK."),
        Field("new-in", \.newInRun, "Only the findings first seen in run RUN (new in it)."),
    ]

    // The values as the fields hold them: the wire's text, in JSON in their FilterText form.
    private typealias Words<W: FilterWords> = FilterText<FilterForms.List<W>>

    private var statusList: Words<FilterWordSets.Statuses>? {
        get { status.map { Words($0) } }
        set { status = newValue?.text }
    }
    private var severityList: Words<FilterWordSets.Severities>? {
        get { severity.map { Words($0) } }
        set { severity = newValue?.text }
    }
    private var ruleList: Words<FilterWordSets.Names>? {
        get { rule.map { Words($0) } }
        set { rule = newValue?.text }
    }
    private var screenList: Words<FilterWordSets.Names>? {
        get { screen.map { Words($0) } }
        set { screen = newValue?.text }
    }
    private var sourceWord: FilterText<FilterForms.Word<FilterWordSets.Sources>>? {
        get { source.map { FilterText($0) } }
        set { source = newValue?.text }
    }
    private var stepName: ChecklistStepName? {
        get { step.map { ChecklistStepName($0) } }
        set { step = newValue?.text }
    }
    private var blockedFlag: FilterText<FilterForms.Flag>? {
        get { blocked.map { FilterText($0) } }
        set { blocked = newValue?.text }
    }
    private var newInRun: FilterText<FilterForms.Run>? {
        get { newIn.map { FilterText($0) } }
        set { newIn = newValue?.text }
    }
}
