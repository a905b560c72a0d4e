import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore

/// The filter options of every command that selects findings (`findings`, and `finding set` and `finding assign`
/// after `--where`): one option per field of FindingFilters, named like the key, checked by Core's FindingQuery.
enum FindingFilterOptions {
    /// The options, one per field of FindingFilters (the filter language's one declaration), helped by its summary.
    static let arguments: [ArgumentDefinition] = FindingFilters.fields.map { field in
        field.key == "blocked"
            ? .flag(field.key, help: field.summary)
            : .option(field.key, valueName: valueNames[field.key] ?? "VALUE", help: field.summary)
    }

    /// What each option's value is called in the help.
    private static let valueNames = [
        "status": "S[,S…]", "severity": "S[,S…]", "rule": "R[,R…]", "screen": "KEY[,KEY…]", "owner": "NAME",
        "assignee": "NAME", "source": "SOURCE", "step": "N", "file": "PATH", "new-in": "RUN",
    ]

    /// Whether any filter option was given.
    static func isGiven(_ parsed: ParsedCommand) -> Bool {
        FindingFilters.fields.contains { parsed.value($0.key) != nil || parsed.flag($0.key) }
    }

    /// The filters given, as the wire keys of the query they make; what FindingQuery refuses is a usage error
    /// naming the option.
    static func keywords(_ parsed: ParsedCommand) throws(UsageError) -> [(key: String, value: String)] {
        let given: [(key: String, value: String)] = FindingFilters.fields.map(\.key).compactMap { key in
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
