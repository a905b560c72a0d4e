/// How people quote a finding or an item of a project: by its number in the project, `F-12` in reports.
///
/// The prefix keeps the label apart from the scanner's rule ids (`DUO007`): `F-7` is finding 7, whichever its rule.
public enum FindingNumber {
    /// What stands before the number in a report: `F-`.
    public static let prefix = "F-"

    /// The highest number a finding can have: numbers are 32-bit in the database.
    public static let maximum = Int(Int32.max)

    /// `F-12` for finding 12.
    public static func label(_ number: Int) -> String { prefix + String(number) }

    /// The number `text` names: the bare number (`12`) or the label the CLI and the reports print (`F-12`, `f-12`);
    /// nil for anything else, or a number outside 1 to `maximum`.
    public static func parse(_ text: String) -> Int? {
        var digits = Substring(text)
        if digits.uppercased().hasPrefix(prefix) { digits = digits.dropFirst(prefix.count) }
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(digits),
            (1...maximum).contains(number)
        else { return nil }
        return number
    }

    /// What `parse` takes, for an error: `a finding is named by its number in the project (12 or F-12)`.
    public static let rule = "a finding is named by its number in the project, 12 or \(prefix)12"
}
