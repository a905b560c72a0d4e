/// How people quote a finding or an item of a project: by its number in the project, `F-12` in reports.
///
/// The prefix keeps the label apart from the scanner's rule ids (`DUO007`): `F-7` is finding 7, whichever its rule.
public enum FindingNumber {
    /// What stands before the number in a report: `F-`.
    public static let prefix = "F-"

    /// `F-12` for finding 12.
    public static func label(_ number: Int) -> String { prefix + String(number) }
}
