/// A step of the bars audit checklist (domain/checklist.json). `all` is the checklist: Schema's `checklist_steps`
/// holds the same rows (seeded by migration 0003, checked column by column by the Store's tests), and the report,
/// the CLI's help, MCP and the store take the steps from here.
public struct ChecklistStep: Sendable, Equatable {
    /// 1 to `all.count`.
    public var number: Int
    /// `container`, `order`, …, as the protocol names the step.
    public var key: String
    /// What the step asks of a screen, in one sentence of Barkeep's own words (the readiness report, MCP).
    public var asks: String
    /// The domain's summary of the step (checklist.json), as `checklist_steps.summary` holds it.
    public var summary: String
    /// Scanner rules that evidence the step: an open finding of one keeps the step from being done.
    public var rules: [String]
    /// APIs a fix for the step may need that only the iOS 27.1 SDK declares.
    public var sdkSymbols: [String]

    /// A step.
    public init(number: Int, key: String, asks: String, summary: String, rules: [String], sdkSymbols: [String]) {
        self.number = number
        self.key = key
        self.asks = asks
        self.summary = summary
        self.rules = rules
        self.sdkSymbols = sdkSymbols
    }

    /// The checklist, by number.
    public static let all: [ChecklistStep] = [
        ChecklistStep(
            number: 1, key: "container",
            asks: "Put every bar item in a navigation or tab container; a bar that must stay custom reads the "
                + "bar's edge and keeps its strip clear.",
            summary: "Every bar item is owned by a navigation or tab container (no standalone "
                + "UIToolbar/UINavigationBar/UITabBar); a bar that must stay custom reads the bar edge and "
                + "reserves its strip.",
            rules: ["DUO007"],
            sdkSymbols: []),
        ChecklistStep(
            number: 2, key: "order",
            asks: "Lead the vertical bar with back or close, then the prominent actions; keep related items "
                + "together.",
            summary: "Top of the vertical bar: back/close first, then prominent actions (cancellationAction, "
                + "topBarPinnedTrailing / pinnedTrailingGroup); related items grouped.",
            rules: [],
            sdkSymbols: []),
        ChecklistStep(
            number: 3, key: "title-and-symbol",
            asks: "Give each item a title as well as a symbol.",
            summary: "Every item supplies both a title and a symbol.",
            rules: [],
            sdkSymbols: []),
        ChecklistStep(
            number: 4, key: "informative-text",
            asks: "Keep text that informs horizontal; reduce redundant labels to a symbol and show counts as "
                + "badges.",
            summary: "Text that carries information stays horizontal; redundant text becomes symbol-only, counts "
                + "become badges.",
            rules: [],
            sdkSymbols: []),
        ChecklistStep(
            number: 5, key: "axis",
            asks: "Keep items that change shape horizontal only; let custom views with a vertical form prefer "
                + "the vertical axis.",
            summary: "Items that change shape use horizontalOnly; custom views with a vertical form use "
                + "verticalPreferred.",
            rules: [],
            sdkSymbols: ["axisBehavior", "ToolbarItemAxisBehavior", "UIBarButtonItem.axisBehavior"]),
        ChecklistStep(
            number: 6, key: "custom-views-fit",
            asks: "Make custom views fit the fixed bar width or adapt to the vertical bar edge, legible without "
                + "the scroll edge effect and with Reduce Transparency.",
            summary: "Custom views fit the fixed bar width or adapt using the vertical bar edge; legible without "
                + "scroll edge effect and with Reduce Transparency.",
            rules: [],
            sdkSymbols: [
                "toolbarVerticalEdge", "verticalBarEdge", "UIVerticalBarEdge", "systemTraitsAffectingVerticalBarEdge",
                "layoutRegionForBarOnEdge",
            ]),
        ChecklistStep(
            number: 7, key: "overflow",
            asks: "Use a single overflow menu that owns the ellipsis; fold custom catch-all menus into it.",
            summary: "One overflow menu; the ellipsis belongs to it; custom grab-bag menus move into the system "
                + "overflow.",
            rules: ["DUO011"],
            sdkSymbols: []),
        ChecklistStep(
            number: 8, key: "compression",
            asks: "Choose whether the toolbar or the tab bar gives way first to suit the screen's purpose.",
            summary: "The compression preference (toolbar first or tab bar first) fits the screen's purpose.",
            rules: [],
            sdkSymbols: ["toolbarVerticalCompressionBehavior", "verticalBarCompressionBehavior"]),
        ChecklistStep(
            number: 9, key: "priority",
            asks: "Set visibility priority on groups, then items: high for creation and status, low for rare "
                + "actions.",
            summary: "visibilityPriority set on groups then items: primary creation and status-bearing items high, "
                + "rare actions low.",
            rules: [],
            sdkSymbols: []),
        ChecklistStep(
            number: 10, key: "opt-out",
            asks: "Turn vertical bars off only where it suits (a bottom-heavy single page, a one-control "
                + "sheet), fixed per presentation.",
            summary: "Vertical bars are disabled only where it fits (bottom-heavy single page, single-control "
                + "sheet), as a stable per-presentation choice.",
            rules: [],
            sdkSymbols: [
                "toolbarVerticalBehavior", "ToolbarVerticalBehavior", "preferredVerticalBarBehavior",
                "UIVerticalBarBehavior", "childForPreferredVerticalBarBehavior",
                "setNeedsUpdateOfVerticalBarConfiguration",
            ]),
        ChecklistStep(
            number: 11, key: "backgrounds",
            asks: "Let hero images and full-bleed headers run under the bar with the background extension "
                + "effect; keep scrolling content inset.",
            summary: "Hero images and full-bleed headers extend under the bar with the background extension "
                + "effect; scrolling content stays inset.",
            rules: [],
            sdkSymbols: []),
        ChecklistStep(
            number: 12, key: "sheets",
            asks: "Start sheets from the default placement, justify any other, and check trailing sheets on a "
                + "device or simulator.",
            summary: "Sheets start from the default; a placement needs a reason; trailing sheets are checked on "
                + "device or simulator.",
            rules: [],
            sdkSymbols: []),
    ]

    /// The steps' numbers: 1 to the number of steps.
    public static let numbers = 1...all.count

    /// The steps' numbers as a sentence says them: `1 to 12`.
    public static let numbersSpoken = "\(numbers.lowerBound) to \(numbers.upperBound)"

    /// The step numbered `number`, if any.
    public static func numbered(_ number: Int) -> ChecklistStep? {
        numbers.contains(number) ? all[number - 1] : nil
    }

    /// The step whose key is `key`, if any.
    public static func keyed(_ key: String) -> ChecklistStep? {
        all.first { $0.key == key }
    }

    /// `5 axis`.
    public var name: String { "\(number) \(key)" }

    /// Why `word` cannot name a step, or nil when it may: a step is named by its number (1 to 12) or its key, and a
    /// key is lowercase letters and hyphens (whether the key is a step's, `keyed` says).
    public static func problem(naming word: String) -> String? {
        if let number = Int(word), numbers.contains(number) { return nil }
        let isKeyShaped =
            word.utf8.count <= 64 && word.first.map { ("a"..."z").contains($0) } == true
            && word.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }
        guard isKeyShaped else {
            return
                "\(ValueExcerpt.quoted(word)) is not a checklist step: steps are \(numbersSpoken), "
                + "or a step's key (order)"
        }
        return nil
    }

    /// Whether `finding`, open, keeps the step open: it is of the step (an item) or of a rule evidencing it.
    public func isKeptOpen(by finding: OpenFinding) -> Bool {
        finding.step == number || finding.rule.map(rules.contains) == true
    }

    /// The findings among `findings` (open ones) that keep the step open: while one is, the step cannot be done.
    public func blockers(among findings: [OpenFinding]) -> [OpenFinding] {
        findings.filter(isKeptOpen)
    }

    /// Why the step cannot be marked done on `screen` while `blockers` are open; nil when none is. `step 1
    /// (container) of Inbox cannot be done: finding 10 (DUO007 Sources/Inbox.swift:7) is open`.
    public func refusalOfDone(on screen: String, blockers: [OpenFinding]) -> String? {
        guard !blockers.isEmpty else { return nil }
        let named = blockers.prefix(3).map(\.reference).joined(separator: ", ")
        let more = blockers.count > 3 ? " and \(blockers.count - 3) more" : ""
        return "step \(number) (\(key)) of \(screen) cannot be done: finding \(named)\(more) "
            + (blockers.count == 1 ? "is" : "are") + " open"
    }
}
