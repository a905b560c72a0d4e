import BarkeepCommandLine
import BarkeepCore

/// The filter options of every command that selects findings (`findings`, and `finding set` and `finding assign`
/// after `--where`): one option per key of Core's FindingQuery, named like the key, checked by FindingQuery itself.
enum FindingFilterOptions {
    /// The options, in the order of FindingQuery.keys.
    static let arguments: [ArgumentDefinition] = [
        .option(
            "status", valueName: "S[,S…]",
            help: "Only these statuses: open (needs work; the default), all, "
                + FindingStatus.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        .option(
            "severity", valueName: "S[,S…]",
            help: "Only these severities: " + Severity.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        .option("rule", valueName: "R[,R…]", help: "Only these rules (DUO003,DUO007)."),
        .option(
            "screen", valueName: "KEY[,KEY…]",
            help: "Only the findings counting for these screens (their own and their components'); 'unmapped' for "
                + "no screen's."),
        .option(
            "owner", valueName: "NAME",
            help: "Only the findings counting for the screens NAME owns; '\(ScreenOwner.nobody)': those no one owns."),
        .option("assignee", valueName: "NAME", help: "Only the findings assigned to NAME; 'none': to no one."),
        .option("source", valueName: "SOURCE", help: "Only scanner findings, or only manual items."),
        .option("step", valueName: "N", help: "Only the findings of checklist step N (1 to 12, or its key)."),
        .option(
            "file", valueName: "PATH",
            help: "Only the file PATH and the files under PATH/ (only those with a trailing /); no globs."),
        .flag("blocked", help: "Only the findings blocked on the SDK."),
        .option("new-in", valueName: "RUN", help: "Only the findings first seen in run RUN (new in it)."),
    ]

    /// Whether any filter option was given.
    static func isGiven(_ parsed: ParsedCommand) -> Bool {
        FindingQuery.keys.contains { parsed.value($0) != nil || parsed.flag($0) }
    }

    /// The filters given, as the wire keys of the query they make; what FindingQuery refuses is a usage error
    /// naming the option.
    static func keywords(_ parsed: ParsedCommand) throws(UsageError) -> [(key: String, value: String)] {
        let given: [(key: String, value: String)] = FindingQuery.keys.compactMap { key in
            if parsed.flag(key) { return (key, "yes") }
            return parsed.value(key).map { (key, $0) }
        }
        do throws(CoreError) {
            return try FindingQuery.parse(keywords: given).keywords
        } catch {
            guard case .invalidArgument(let key, _) = error else {
                throw UsageError(error.description, commandPath: parsed.commandPath)
            }
            throw UsageError("--\(key): \(error.description)", commandPath: parsed.commandPath)
        }
    }
}
