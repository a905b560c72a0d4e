import BarkeepCommandLine
import BarkeepCore

/// How a run, a finding or an item is named on the command line: its project, then its number there (numbers are
/// per project, so a number alone names nothing).
struct NumberInProject {
    /// The project.
    let project: String
    /// The number, as typed (the daemon checks it).
    let number: String

    /// The two positional arguments, `number` described by `help`.
    static func arguments(_ help: String) -> [ArgumentDefinition] {
        [.positional("project", help: "The project."), .positional("number", help: help)]
    }

    /// Reads them from a parsed command line.
    init(_ parsed: ParsedCommand) {
        project = parsed.value("project") ?? ""
        number = parsed.value("number") ?? ""
    }

    /// Reads a finding's or an item's: the number as the CLI prints it, `12` or `F-12` (FindingNumber), sent bare.
    static func finding(_ parsed: ParsedCommand) throws(UsageError) -> NumberInProject {
        let target = NumberInProject(parsed)
        return NumberInProject(project: target.project, number: String(try findingNumber(target.number, parsed)))
    }

    /// The number of a finding named by `text` (`12` or `F-12`); anything else is a usage error.
    static func findingNumber(_ text: String, _ parsed: ParsedCommand) throws(UsageError) -> Int {
        guard let number = FindingNumber.parse(text) else {
            throw UsageError("\(FindingNumber.rule), not \(ValueExcerpt.quoted(text))", commandPath: parsed.commandPath)
        }
        return number
    }

    private init(project: String, number: String) {
        self.project = project
        self.number = number
    }
}

/// A command naming one run, finding or item of a project.
protocol NamesNumberInProject {
    /// What it names.
    var target: NumberInProject { get }
}

extension NamesNumberInProject {
    /// The project.
    var project: String { target.project }
    /// The number in it.
    var number: String { target.number }
}
