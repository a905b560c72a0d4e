import BarkeepCommandLine
import BarkeepCore
import Testing

// MARK: - A small command tree to parse against

/// `tool [--server ADDR] [--token TOKEN] [--json] [-v] <command>`
private struct ToolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "tool",
        abstract: "A tool for tests.",
        discussion: "Talks to nothing at all.",
        arguments: [
            .option("server", short: "s", valueName: "ADDR", environment: "TOOL_SERVER", help: "The server."),
            .option("token", valueName: "TOKEN", environment: "TOOL_TOKEN", help: "The token."),
            .flag("json", help: "Print JSON."),
            .flag("verbose", short: "v", help: "Say more."),
        ],
        subcommands: [PingCommand.self, TagCommand.self, CopyCommand.self, NoteCommand.self]
    )
}

/// `tool ping`: no arguments of its own.
private struct PingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(name: "ping", abstract: "Check the server answers.")
}

/// `tool tag [--label LABEL …] [--color COLOR] [--force] PROJECT [SCREEN]`
private struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "tag",
        abstract: "Tag a project.",
        arguments: [
            .option("label", short: "l", valueName: "LABEL", repeatable: true, help: "A label; repeat for more."),
            .option("color", valueName: "COLOR", environment: "TOOL_COLOR", help: "The color."),
            .flag("force", short: "f", help: "Overwrite."),
            .positional("project", help: "The project."),
            .positional("screen", optional: true, help: "The screen."),
        ]
    )
}

/// `tool copy SOURCE FILES …`
private struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "copy",
        abstract: "Copy files.",
        arguments: [
            .positional("source", help: "Where from."),
            .positional("files", repeatable: true, help: "What to copy."),
        ]
    )
}

/// `tool note <command>`
private struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "note",
        abstract: "Manage notes.",
        arguments: [.flag("quiet", short: "q", environment: "TOOL_QUIET", help: "Print nothing.")],
        subcommands: [NoteAddCommand.self]
    )
}

/// `tool note add [WORDS …]`
private struct NoteAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a note.",
        arguments: [.positional("words", optional: true, repeatable: true, help: "The note's words.")]
    )
}

@Suite("CommandLineParser")
struct CommandLineParserTests {
    private func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError)
        -> ParsedCommand
    {
        try CommandLineParser.parse(arguments, root: ToolCommand.self, environment: environment)
    }

    private func names(_ parsed: ParsedCommand) -> [String] { parsed.path.map { $0.configuration.name } }

    // MARK: - Subcommands

    @Test(
        "the subcommand path follows the words that name commands",
        arguments: [
            ([], ["tool"]),
            (["ping"], ["tool", "ping"]),
            (["tag", "p"], ["tool", "tag"]),
            (["copy", "a", "b"], ["tool", "copy"]),
            (["note"], ["tool", "note"]),
            (["note", "add"], ["tool", "note", "add"]),
            (["note", "add", "ping"], ["tool", "note", "add"]),
            (["--json", "ping"], ["tool", "ping"]),
            (["--server", "tag", "ping"], ["tool", "ping"]),
            (["tag", "ping"], ["tool", "tag"]),
        ]
    )
    func subcommandSelection(arguments: [String], path: [String]) throws {
        let parsed = try parse(arguments)
        #expect(names(parsed) == path)
        #expect(parsed.command.configuration.name == path.last)
        #expect(parsed.commandPath == path.joined(separator: " "))
        #expect(!parsed.isHelpRequested)
    }

    @Test("a subcommand's name after a positional is a positional, not a command")
    func subcommandNameAsPositional() throws {
        let parsed = try parse(["tag", "ping", "copy"])
        #expect(names(parsed) == ["tool", "tag"])
        #expect(parsed.value("project") == "ping")
        #expect(parsed.value("screen") == "copy")
    }

    // MARK: - Options and flags

    @Test(
        "global options may come before or after the subcommand, in every spelling",
        arguments: [
            ["--server", "h:1", "ping"],
            ["ping", "--server", "h:1"],
            ["-s", "h:1", "ping"],
            ["ping", "-s", "h:1"],
            ["--server=h:1", "ping"],
            ["ping", "--server=h:1"],
            ["--server", "x:9", "ping", "--server", "h:1"],
        ]
    )
    func globalOptions(arguments: [String]) throws {
        let parsed = try parse(arguments)
        #expect(names(parsed) == ["tool", "ping"])
        #expect(parsed.value("server") == "h:1")
        #expect(parsed.values("server") == ["h:1"])
    }

    @Test(
        "global flags may come before or after the subcommand, or deeper",
        arguments: [
            ["--json", "note", "add", "x"],
            ["note", "--json", "add", "x"],
            ["note", "add", "--json", "x"],
            ["note", "add", "x", "--json"],
        ]
    )
    func globalFlags(arguments: [String]) throws {
        let parsed = try parse(arguments)
        #expect(names(parsed) == ["tool", "note", "add"])
        #expect(parsed.flag("json"))
        #expect(!parsed.flag("verbose"))
        #expect(parsed.values("words") == ["x"])
    }

    @Test("a parent's options apply to deeper commands: note's -q after add")
    func intermediateOptions() throws {
        let parsed = try parse(["note", "add", "-q", "-v", "hello"])
        #expect(parsed.flag("quiet"))
        #expect(parsed.flag("verbose"))
        #expect(parsed.values("words") == ["hello"])
    }

    @Test(
        "--name=value takes everything after the first '=' as the value",
        arguments: [
            ("--server=h:1", "h:1"),
            ("--server=", ""),
            ("--server=a=b", "a=b"),
            ("--server==", "="),
            ("--server=--json", "--json"),
            ("--server=with space", "with space"),
        ]
    )
    func inlineValue(argument: String, value: String) throws {
        let parsed = try parse([argument])
        #expect(parsed.value("server") == value)
        #expect(!parsed.flag("json"))
    }

    @Test("an option's separate value is taken as is, even when it looks like an option or a command")
    func separateValueTakenVerbatim() throws {
        let parsed = try parse(["--token", "--json", "--server", "ping", "tag", "-l", "-f", "p"])
        #expect(parsed.value("token") == "--json")
        #expect(parsed.value("server") == "ping")
        #expect(!parsed.flag("json"))
        #expect(names(parsed) == ["tool", "tag"])
        #expect(parsed.values("label") == ["-f"])
        #expect(!parsed.flag("force"))
        #expect(parsed.value("project") == "p")
    }

    @Test("repeatable options collect every value in order; value(_:) is the last")
    func repeatableOption() throws {
        let parsed = try parse(["tag", "-l", "a", "p", "--label", "b", "--label=c", "-l", "a"])
        #expect(parsed.values("label") == ["a", "b", "c", "a"])
        #expect(parsed.value("label") == "a")
        #expect(parsed.value("project") == "p")
    }

    @Test("a non-repeatable option given twice keeps the last value only")
    func nonRepeatableOptionRepeated() throws {
        let parsed = try parse(["tag", "p", "--color", "red", "--color=blue"])
        #expect(parsed.value("color") == "blue")
        #expect(parsed.values("color") == ["blue"])
    }

    @Test("absent options and flags read as nil, empty and false")
    func absentValues() throws {
        let parsed = try parse(["ping"])
        #expect(parsed.value("server") == nil)
        #expect(parsed.values("server") == [])
        #expect(!parsed.flag("json"))
        #expect(parsed.value("no-such-key") == nil)
    }

    @Test(
        "short flags and options",
        arguments: [["-v", "tag", "-f", "-l", "x", "p"], ["tag", "p", "-l", "x", "-f", "-v"]])
    func shortNames(arguments: [String]) throws {
        let parsed = try parse(arguments)
        #expect(parsed.flag("verbose"))
        #expect(parsed.flag("force"))
        #expect(parsed.values("label") == ["x"])
        #expect(parsed.value("project") == "p")
    }

    // MARK: - Positionals

    @Test(
        "positionals fill in order; optional ones may be missing; a repeatable one takes the rest",
        arguments: [
            (["tag", "p"], ["project": ["p"], "screen": []]),
            (["tag", "p", "s"], ["project": ["p"], "screen": ["s"]]),
            (["tag", "-", "s"], ["project": ["-"], "screen": ["s"]]),
            (["copy", "src", "a"], ["source": ["src"], "files": ["a"]]),
            (["copy", "src", "a", "b", "c"], ["source": ["src"], "files": ["a", "b", "c"]]),
            (["note", "add"], ["words": []]),
            (["note", "add", "buy", "more", "bars"], ["words": ["buy", "more", "bars"]]),
        ]
    )
    func positionals(arguments: [String], expected: [String: [String]]) throws {
        let parsed = try parse(arguments)
        for (key, values) in expected {
            #expect(parsed.values(key) == values, "\(key)")
            #expect(parsed.value(key) == values.last, "\(key)")
        }
    }

    @Test(
        "'--' ends options: later words are positionals even when they look like options",
        arguments: [
            (["tag", "--", "--force", "-h"], "--force", "-h"),
            (["tag", "--", "-", "--"], "-", "--"),
            (["tag", "--json", "--", "--json"], "--json", nil),
        ]
    )
    func doubleDash(arguments: [String], project: String, screen: String?) throws {
        let parsed = try parse(arguments)
        #expect(names(parsed) == ["tool", "tag"])
        #expect(!parsed.isHelpRequested)
        #expect(!parsed.flag("force"))
        #expect(parsed.value("project") == project)
        #expect(parsed.value("screen") == screen)
    }

    @Test("after '--' the rest fills a repeatable positional verbatim")
    func doubleDashRepeatable() throws {
        let parsed = try parse(["note", "add", "--json", "--", "-q", "--server", "x", "--"])
        #expect(parsed.values("words") == ["-q", "--server", "x", "--"])
        #expect(parsed.flag("json"))
        #expect(!parsed.flag("quiet"))
        #expect(parsed.value("server") == nil)
    }

    // MARK: - Help

    @Test(
        "-h or --help anywhere asks for help on the command reached, skipping validation",
        arguments: [
            (["--help"], ["tool"]),
            (["-h"], ["tool"]),
            (["--help", "tag"], ["tool", "tag"]),
            (["tag", "--help"], ["tool", "tag"]),
            (["tag", "-h"], ["tool", "tag"]),
            (["tag", "p", "s", "extra", "-h"], ["tool", "tag"]),
            (["copy", "-h"], ["tool", "copy"]),
            (["note", "-h", "add"], ["tool", "note", "add"]),
            (["--server", "h:1", "ping", "--json", "--help"], ["tool", "ping"]),
            (["bogus", "--help"], ["tool"]),
            (["--bogus", "--help"], ["tool"]),
            (["ping", "--bogus", "-h"], ["tool", "ping"]),
        ]
    )
    func helpAnywhere(arguments: [String], path: [String]) throws {
        let parsed = try parse(arguments)
        #expect(parsed.isHelpRequested)
        #expect(names(parsed) == path)
    }

    @Test("a value of --help for an option is a value, not a help request")
    func helpAsOptionValue() throws {
        let parsed = try parse(["--token", "--help", "ping"])
        #expect(!parsed.isHelpRequested)
        #expect(parsed.value("token") == "--help")
    }

    // MARK: - Usage errors

    @Test(
        "mistakes throw a UsageError naming the word, for the command reached",
        arguments: [
            (["--bogus"], "unknown option '--bogus'", "tool"),
            (["--bogus=1"], "unknown option '--bogus'", "tool"),
            (["-x"], "unknown option '-x'", "tool"),
            (["ping", "--bogus"], "unknown option '--bogus'", "tool ping"),
            (["ping", "--label", "x"], "unknown option '--label'", "tool ping"),
            (["--label", "x", "tag", "p"], "unknown option '--label'", "tool"),
            (["--quiet", "note", "add"], "unknown option '--quiet'", "tool"),
            (["bogus"], "unknown command 'bogus'", "tool"),
            (["Ping"], "unknown command 'Ping'", "tool"),
            (["note", "bogus"], "unknown command 'bogus'", "tool note"),
            (["--server"], "--server needs a value (ADDR)", "tool"),
            (["ping", "-s"], "-s needs a value (ADDR)", "tool ping"),
            (["tag", "p", "--color"], "--color needs a value (COLOR)", "tool tag"),
            (["tag", "p", "--label"], "--label needs a value (LABEL)", "tool tag"),
            (["tag", "p", "-fv"], "unknown option '-fv'", "tool tag"),
            (["tag", "p", "-l=x"], "unknown option '-l=x'", "tool tag"),
            (["--json=yes"], "--json takes no value", "tool"),
            (["--json="], "--json takes no value", "tool"),
            (["tag"], "missing PROJECT", "tool tag"),
            (["tag", "--force"], "missing PROJECT", "tool tag"),
            (["copy"], "missing SOURCE", "tool copy"),
            (["copy", "src"], "missing FILES …", "tool copy"),
            (["tag", "p", "s", "extra"], "unexpected argument 'extra'", "tool tag"),
            (["ping", "extra"], "unexpected argument 'extra'", "tool ping"),
            (["ping", "--", "--json"], "unexpected argument '--json'", "tool ping"),
            (["--", "ping"], "unknown command 'ping'", "tool"),
            (["ping", "--bogus", "--", "--help"], "unknown option '--bogus'", "tool ping"),
        ]
    )
    func usageErrors(arguments: [String], message: String, commandPath: String) {
        let error = #expect(throws: UsageError.self) { try parse(arguments) }
        #expect(error?.message == message)
        #expect(error?.commandPath == commandPath)
    }

    @Test("a usage error prints its message and a pointer to --help; exit code 64")
    func usageErrorDescription() {
        let error = UsageError("unknown option '--bogus'", commandPath: "tool ping")
        #expect(error.description == "unknown option '--bogus'\nSee 'tool ping --help'.")
        #expect(UsageError.exitCode == 64)
    }

    // MARK: - Environment

    @Test(
        "an option's environment variable is used only when the option is absent",
        arguments: [
            ([], ["TOOL_SERVER": "env:1"], "env:1"),
            (["ping"], ["TOOL_SERVER": "env:1"], "env:1"),
            (["--server", "cli:2"], ["TOOL_SERVER": "env:1"], "cli:2"),
            (["ping", "--server=cli:2"], ["TOOL_SERVER": "env:1"], "cli:2"),
            (["--server="], ["TOOL_SERVER": "env:1"], ""),
            ([], ["TOOL_SERVER": ""], nil),
            ([], ["tool_server": "env:1"], nil),
            ([], ["OTHER": "env:1"], nil),
            ([], [:], nil),
        ] as [([String], [String: String], String?)]
    )
    func environmentFallback(arguments: [String], environment: [String: String], server: String?) throws {
        let parsed = try parse(arguments, environment: environment)
        #expect(parsed.value("server") == server)
    }

    @Test("each option falls back to its own variable; subcommand options too")
    func environmentPerOption() throws {
        let environment = ["TOOL_SERVER": "env:1", "TOOL_TOKEN": "secret", "TOOL_COLOR": "green"]
        let parsed = try parse(["--token", "given", "tag", "p"], environment: environment)
        #expect(parsed.value("server") == "env:1")
        #expect(parsed.value("token") == "given")
        #expect(parsed.value("color") == "green")

        // Outside `tag`, its option's variable means nothing.
        let ping = try parse(["ping"], environment: environment)
        #expect(ping.value("color") == nil)
    }

    @Test(
        "a flag's environment variable sets it when it reads as true, in any case; the flag given wins",
        arguments: [
            ([], ["TOOL_QUIET": "1"], true),
            ([], ["TOOL_QUIET": "TRUE"], true),
            ([], ["TOOL_QUIET": "yes"], true),
            ([], ["TOOL_QUIET": "On"], true),
            ([], ["TOOL_QUIET": "0"], false),
            ([], ["TOOL_QUIET": "false"], false),
            ([], ["TOOL_QUIET": "no"], false),
            ([], ["TOOL_QUIET": "off"], false),
            ([], ["TOOL_QUIET": ""], false),
            ([], [:], false),
            (["-q"], ["TOOL_QUIET": "0"], true),
            (["--quiet"], ["TOOL_QUIET": "maybe"], true),
        ] as [([String], [String: String], Bool)]
    )
    func flagEnvironment(arguments: [String], environment: [String: String], isSet: Bool) throws {
        let parsed = try parse(["note"] + arguments + ["add"], environment: environment)
        #expect(parsed.flag("quiet") == isSet)
    }

    @Test("a flag's environment variable that reads as neither true nor false is a usage error naming it")
    func flagEnvironmentGarbage() {
        let error = #expect(throws: UsageError.self) {
            try parse(["note", "add"], environment: ["TOOL_QUIET": "maybe"])
        }
        #expect(error?.message == "TOOL_QUIET must be 1 or 0, not 'maybe'")
        // Outside `note`, its flag's variable means nothing.
        #expect(throws: Never.self) { try parse(["ping"], environment: ["TOOL_QUIET": "maybe"]) }
    }

    @Test("the environment does not stand in for a missing positional")
    func environmentDoesNotFillPositionals() {
        let error = #expect(throws: UsageError.self) {
            try parse(["tag"], environment: ["PROJECT": "p", "TOOL_PROJECT": "p", "project": "p"])
        }
        #expect(error?.message == "missing PROJECT")
    }

    // MARK: - Help text

    @Test("the root's help shows abstract, usage, discussion, options with env and short names, and commands")
    func rootHelp() {
        let help = CommandLineParser.help(for: [ToolCommand.self])
        #expect(help.hasPrefix("A tool for tests.\n"))
        #expect(help.contains("USAGE: tool <command> [options]\n"))
        #expect(help.contains("Talks to nothing at all."))
        #expect(help.contains("\nOPTIONS:\n"))
        #expect(help.contains(lineMatching: "-s, --server ADDR", "The server. (env TOOL_SERVER)"))
        #expect(help.contains(lineMatching: "--token TOKEN", "The token. (env TOOL_TOKEN)"))
        #expect(help.contains(lineMatching: "--json", "Print JSON."))
        #expect(help.contains(lineMatching: "-v, --verbose", "Say more."))
        #expect(help.contains(lineMatching: "-h, --help", "Show this help."))
        #expect(help.contains("\nCOMMANDS:\n"))
        #expect(help.contains(lineMatching: "ping", "Check the server answers."))
        #expect(help.contains(lineMatching: "tag", "Tag a project."))
        #expect(help.contains(lineMatching: "copy", "Copy files."))
        #expect(help.contains(lineMatching: "note", "Manage notes."))
        #expect(help.contains("See 'tool <command> --help'"))
        #expect(!help.contains("ARGUMENTS:"))
        #expect(!help.contains("--label"))
        #expect(help.hasSuffix("\n"))
    }

    @Test("a subcommand's help shows its positionals, its options and the inherited ones, and no commands")
    func subcommandHelp() {
        let help = CommandLineParser.help(for: [ToolCommand.self, TagCommand.self])
        #expect(help.hasPrefix("Tag a project.\n"))
        #expect(help.contains("USAGE: tool tag [options] PROJECT [SCREEN]\n"))
        #expect(help.contains("\nARGUMENTS:\n"))
        #expect(help.contains(lineMatching: "PROJECT", "The project."))
        #expect(help.contains(lineMatching: "SCREEN", "The screen."))
        #expect(help.contains(lineMatching: "-l, --label LABEL …", "A label; repeat for more."))
        #expect(help.contains(lineMatching: "--color COLOR", "The color. (env TOOL_COLOR)"))
        #expect(help.contains(lineMatching: "-f, --force", "Overwrite."))
        #expect(help.contains(lineMatching: "-s, --server ADDR", "The server. (env TOOL_SERVER)"))
        #expect(help.contains(lineMatching: "-h, --help", "Show this help."))
        #expect(!help.contains("COMMANDS:"))
        #expect(!help.contains("Talks to nothing at all."))
    }

    @Test(
        "usage lines for the other shapes of command",
        arguments: [
            ([ToolCommand.self, CopyCommand.self], "USAGE: tool copy [options] SOURCE FILES …\n"),
            ([ToolCommand.self, PingCommand.self], "USAGE: tool ping [options]\n"),
            ([ToolCommand.self, NoteCommand.self], "USAGE: tool note <command> [options]\n"),
            ([ToolCommand.self, NoteCommand.self, NoteAddCommand.self], "USAGE: tool note add [options] [WORDS …]\n"),
            ([PingCommand.self], "USAGE: ping\n"),
        ] as [([any ParsableCommand.Type], String)]
    )
    func usageLines(path: [any ParsableCommand.Type], usage: String) {
        #expect(CommandLineParser.help(for: path).contains(usage))
    }

    @Test("help for a parsed --help request is the help of the command reached")
    func helpForParsedPath() throws {
        let parsed = try parse(["note", "add", "--help"])
        let help = CommandLineParser.help(for: parsed.path)
        #expect(help.hasPrefix("Add a note.\n"))
        #expect(help.contains(lineMatching: "-q, --quiet", "Print nothing. (env TOOL_QUIET)"))
        #expect(help.contains(lineMatching: "--json", "Print JSON."))
    }

    @Test("help for an empty path is empty")
    func helpForEmptyPath() {
        #expect(CommandLineParser.help(for: []) == "")
    }
}

extension String {
    /// Whether some line (or a line and its continuation, for long left columns) shows `left` then `right`.
    fileprivate func contains(lineMatching left: String, _ right: String) -> Bool {
        let lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix(left) else { continue }
            let rest = trimmed.dropFirst(left.count)
            if rest.first == " " && rest.drop(while: { $0 == " " }) == right { return true }
            if rest.isEmpty, index + 1 < lines.count, lines[index + 1].drop(while: { $0 == " " }) == right {
                return true
            }
        }
        return false
    }
}
