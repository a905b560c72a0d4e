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
