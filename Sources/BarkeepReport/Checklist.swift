/// The 12 steps of the bars audit checklist (domain/checklist.json), with a short summary of each in Barkeep's
/// own words for the readiness report.
public enum Checklist {
    /// One step.
    public struct Step: Sendable, Equatable {
        /// 1 to 12.
        public var number: Int
        /// The step's key (`container`, `order`, …), as the protocol names it.
        public var key: String
        /// What the step asks of a screen, in one sentence.
        public var summary: String

        /// A step.
        public init(number: Int, key: String, summary: String) {
            self.number = number
            self.key = key
            self.summary = summary
        }

        /// `5 axis`.
        public var name: String { "\(number) \(key)" }
    }

    /// The steps, by number.
    public static let steps: [Step] = [
        Step(
            number: 1, key: "container",
            summary: "Put every bar item in a navigation or tab container; a bar that must stay custom reads the bar's"
                + " edge and keeps its strip clear."),
        Step(
            number: 2, key: "order",
            summary: "Lead the vertical bar with back or close, then the prominent actions; keep related items"
                + " together."),
        Step(number: 3, key: "title-and-symbol", summary: "Give each item a title as well as a symbol."),
        Step(
            number: 4, key: "informative-text",
            summary: "Keep text that informs horizontal; reduce redundant labels to a symbol and show counts as"
                + " badges."),
        Step(
            number: 5, key: "axis",
            summary: "Keep items that change shape horizontal only; let custom views with a vertical form prefer the"
                + " vertical axis."),
        Step(
            number: 6, key: "custom-views-fit",
            summary: "Make custom views fit the fixed bar width or adapt to the vertical bar edge, legible without the"
                + " scroll edge effect and with Reduce Transparency."),
        Step(
            number: 7, key: "overflow",
            summary: "Use a single overflow menu that owns the ellipsis; fold custom catch-all menus into it."),
        Step(
            number: 8, key: "compression",
            summary: "Choose whether the toolbar or the tab bar gives way first to suit the screen's purpose."),
        Step(
            number: 9, key: "priority",
            summary: "Set visibility priority on groups, then items: high for creation and status, low for rare"
                + " actions."),
        Step(
            number: 10, key: "opt-out",
            summary: "Turn vertical bars off only where it suits (a bottom-heavy single page, a one-control sheet),"
                + " fixed per presentation."),
        Step(
            number: 11, key: "backgrounds",
            summary: "Let hero images and full-bleed headers run under the bar with the background extension effect;"
                + " keep scrolling content inset."),
        Step(
            number: 12, key: "sheets",
            summary: "Start sheets from the default placement, justify any other, and check trailing sheets on a"
                + " device or simulator."),
    ]

    /// The step with this number, if any.
    public static func step(_ number: Int) -> Step? {
        steps.first { $0.number == number }
    }
}
