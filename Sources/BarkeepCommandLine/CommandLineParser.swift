import BarkeepCore

/// A small command-line parser shaped like swift-argument-parser, which the project cannot depend on.
///
/// A command is a type with a static configuration (name, abstract, arguments, subcommands); parsing walks the
/// subcommand tree, accepts the options of every command on the path (so global options may come anywhere),
/// and fails with a `UsageError` (exit code 64) that names the offending word. `--help` anywhere asks for the help
/// of the command reached so far.
public protocol ParsableCommand: SendableMetatype {
    /// Name, abstract, arguments and subcommands.
    static var configuration: CommandConfiguration { get }
}

/// The static description of a command.
public struct CommandConfiguration: Sendable {
    /// The word that selects the command (the program name for the root).
    public var name: String
    /// One line: what the command does.
    public var abstract: String
    /// More text for `--help`, printed after the usage.
    public var discussion: String
    /// The options, flags and positional arguments the command takes.
    public var arguments: [ArgumentDefinition]
    /// Commands below this one.
    public var subcommands: [any ParsableCommand.Type]

    /// Creates a configuration.
    public init(
        name: String,
        abstract: String,
        discussion: String = "",
        arguments: [ArgumentDefinition] = [],
        subcommands: [any ParsableCommand.Type] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.subcommands = subcommands
    }
}

/// One option (`--server ADDR`), flag (`--json`) or positional argument (`PROJECT`).
public struct ArgumentDefinition: Sendable {
    /// What kind of argument this is.
    public enum Kind: Sendable, Equatable {
        /// `--name` with no value.
        case flag
        /// `--name VALUE` or `--name=VALUE`; may be repeated when `isRepeatable`.
        case option(valueName: String, isRepeatable: Bool)
        /// A bare word in order; the last one may take the rest when `isRepeatable`.
        case positional(isOptional: Bool, isRepeatable: Bool)
    }

    /// The key values are stored under: the long name without dashes, or the positional's name.
    public var key: String
    /// Flag or option short name (`-h`), if any.
    public var shortName: Character?
    /// Flag, option or positional.
    public var kind: Kind
    /// One line for `--help`.
    public var help: String
    /// An environment variable read when the option or flag is not given. For a flag, `1`, `true`, `yes` or `on`
    /// sets it and `0`, `false`, `no` or `off` leaves it unset (in any case).
    public var environment: String?
    /// The value an option takes when neither it nor its environment variable is given, when it is a literal
    /// value: shown by `--help` and checked against docs/cli.md by a test, so the two cannot drift.
    public var defaultValue: String?

    /// A flag `--key`.
    public static func flag(
        _ key: String,
        short: Character? = nil,
        environment: String? = nil,
        help: String
    ) -> ArgumentDefinition {
        ArgumentDefinition(key: key, shortName: short, kind: .flag, help: help, environment: environment)
    }

    /// An option `--key VALUE`.
    public static func option(
        _ key: String,
        short: Character? = nil,
        valueName: String,
        repeatable: Bool = false,
        environment: String? = nil,
        default defaultValue: String? = nil,
        help: String
    ) -> ArgumentDefinition {
        ArgumentDefinition(
            key: key,
            shortName: short,
            kind: .option(valueName: valueName, isRepeatable: repeatable),
            help: help,
            environment: environment,
            defaultValue: defaultValue
        )
    }

    /// A positional argument.
    public static func positional(
        _ key: String,
        optional: Bool = false,
        repeatable: Bool = false,
        help: String
    ) -> ArgumentDefinition {
        ArgumentDefinition(
            key: key,
            shortName: nil,
            kind: .positional(isOptional: optional, isRepeatable: repeatable),
            help: help
        )
    }

    /// Whether it is a positional argument rather than an option or a flag.
    public var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }

    var synopsis: String {
        switch kind {
        case .flag: "--\(key)"
        case .option(let valueName, let isRepeatable): "--\(key) \(valueName)" + (isRepeatable ? " …" : "")
        case .positional(let isOptional, let isRepeatable):
            isOptional
                ? "[\(key.uppercased())\(isRepeatable ? " …" : "")]"
                : "\(key.uppercased())\(isRepeatable ? " …" : "")"
        }
    }
}

/// A mistake on the command line: printed with a pointer to `--help`, exit code 64.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the word.
    public var message: String
    /// The command path the error belongs to, for the `--help` hint (`barkeep ping`).
    public var commandPath: String

    /// Creates a usage error.
    public init(_ message: String, commandPath: String) {
        self.message = message
        self.commandPath = commandPath
    }

    public var description: String { "\(message)\nSee '\(commandPath) --help'." }

    /// The conventional exit code for a usage error (EX_USAGE).
    public static let exitCode: Int32 = 64
}

/// The result of parsing: which command was chosen and the values given to it and its parents.
public struct ParsedCommand: Sendable {
    /// The chosen command, last in `path`.
    public var command: any ParsableCommand.Type { path[path.count - 1] }
    /// The commands from the root to the chosen one.
    public let path: [any ParsableCommand.Type]
    /// Whether `--help` (or `-h`) was given.
    public let isHelpRequested: Bool
    private let values: [String: [String]]
    private let flags: Set<String>

    init(path: [any ParsableCommand.Type], values: [String: [String]], flags: Set<String>, isHelpRequested: Bool) {
        self.path = path
        self.values = values
        self.flags = flags
        self.isHelpRequested = isHelpRequested
    }

    /// The command path as typed, e.g. `barkeep ping`.
    public var commandPath: String { path.map { $0.configuration.name }.joined(separator: " ") }

    /// Whether a flag was given.
    public func flag(_ key: String) -> Bool { flags.contains(key) }

    /// The last value of an option or a positional (options fall back to their environment variable).
    public func value(_ key: String) -> String? { values[key]?.last }

    /// The value of an option as `value(_:)` gives it, else the default its definition declares.
    public func valueOrDefault(_ key: String) -> String? {
        if let given = value(key) { return given }
        for command in path.reversed() {
            if let definition = command.configuration.arguments.first(where: { $0.key == key }) {
                return definition.defaultValue
            }
        }
        return nil
    }

    /// Every value of a repeatable option or positional, in order.
    public func values(_ key: String) -> [String] { values[key] ?? [] }
}

/// Parses arguments against a command tree.
public enum CommandLineParser {
    /// Parses `arguments` (without the program name) for `root`.
    ///
    /// `environment` supplies values for options that declare a variable and were not given.
    public static func parse(
        _ arguments: [String],
        root: any ParsableCommand.Type,
        environment: [String: String] = [:]
    ) throws(UsageError) -> ParsedCommand {
        var path: [any ParsableCommand.Type] = [root]
        var definitions = root.configuration.arguments
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var isHelpRequested = false
        var isOptionsEnded = false
        var index = 0

        func commandPath() -> String { path.map { $0.configuration.name }.joined(separator: " ") }
        // `--help` anywhere before `--` wins over a mistake elsewhere on the line: someone asking for help gets it.
        let asksForHelp = arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
        func usageError(_ message: String) -> UsageError { UsageError(message, commandPath: commandPath()) }

        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if !isOptionsEnded && word == "--" {
                isOptionsEnded = true
            } else if !isOptionsEnded && (word == "--help" || word == "-h") {
                isHelpRequested = true
            } else if !isOptionsEnded && word.hasPrefix("-") && word != "-" {
                var name = word
                var inlineValue: String?
                if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                    name = String(word[..<equals])
                    inlineValue = String(word[word.index(after: equals)...])
                }
                let definition = definitions.first { definition in
                    guard !definition.isPositional else { return false }
                    if name == "--" + definition.key { return true }
                    if let short = definition.shortName { return name == "-\(short)" }
                    return false
                }
                guard let definition else {
                    if asksForHelp { continue }
                    throw usageError("unknown option \(ValueExcerpt.quoted(name))")
                }
                switch definition.kind {
                case .flag:
                    guard inlineValue == nil else {
                        throw usageError("\(name) takes no value")
                    }
                    flags.insert(definition.key)
                case .option(let valueName, let isRepeatable):
                    let value: String
                    if let inlineValue {
                        value = inlineValue
                    } else {
                        guard index < arguments.count else {
                            if asksForHelp { continue }
                            throw usageError("\(name) needs a value (\(valueName))")
                        }
                        value = arguments[index]
                        index += 1
                    }
                    if isRepeatable {
                        values[definition.key, default: []].append(value)
                    } else {
                        values[definition.key] = [value]
                    }
                case .positional:
                    break
                }
            } else if !isOptionsEnded, positionals.isEmpty,
                let subcommand = path.last?.configuration.subcommands.first(where: { $0.configuration.name == word })
            {
                path.append(subcommand)
                definitions += subcommand.configuration.arguments
            } else {
                positionals.append(word)
            }
        }

        if isHelpRequested {
            return ParsedCommand(path: path, values: values, flags: flags, isHelpRequested: true)
        }

        let chosen = path[path.count - 1].configuration
        if !chosen.subcommands.isEmpty && chosen.arguments.allSatisfy({ !$0.isPositional }),
            let first = positionals.first
        {
            throw UsageError("unknown command \(ValueExcerpt.quoted(first))", commandPath: commandPath())
        }

        var remaining = positionals[...]
        for definition in chosen.arguments {
            guard case .positional(let isOptional, let isRepeatable) = definition.kind else { continue }
            if isRepeatable {
                if remaining.isEmpty && !isOptional {
                    throw UsageError("missing \(definition.synopsis)", commandPath: commandPath())
                }
                values[definition.key] = Array(remaining)
                remaining = []
            } else if let next = remaining.first {
                values[definition.key] = [next]
                remaining = remaining.dropFirst()
            } else if !isOptional {
                throw UsageError("missing \(definition.synopsis)", commandPath: commandPath())
            }
        }
        if let extra = remaining.first {
            throw UsageError("unexpected argument \(ValueExcerpt.quoted(extra))", commandPath: commandPath())
        }

        for definition in definitions where values[definition.key] == nil && !flags.contains(definition.key) {
            guard let variable = definition.environment, let value = environment[variable], !value.isEmpty else {
                continue
            }
            guard definition.kind == .flag else {
                values[definition.key] = [value]
                continue
            }
            switch value.lowercased() {
            case "1", "true", "yes", "on": flags.insert(definition.key)
            case "0", "false", "no", "off": break
            default:
                throw UsageError(
                    "\(variable) must be 1 or 0, not \(ValueExcerpt.quoted(value))", commandPath: commandPath())
            }
        }
        return ParsedCommand(path: path, values: values, flags: flags, isHelpRequested: false)
    }

    /// The `--help` text of the last command of `path`, with the options it inherits from its parents.
    public static func help(for path: [any ParsableCommand.Type]) -> String {
        guard let command = path.last?.configuration else { return "" }
        let commandPath = path.map { $0.configuration.name }.joined(separator: " ")
        let own = command.arguments
        let inherited = path.dropLast().flatMap { $0.configuration.arguments.filter { !$0.isPositional } }
        let positionals = own.filter(\.isPositional)
        var usage = commandPath
        if !command.subcommands.isEmpty { usage += " <command>" }
        if !(own + inherited).filter({ !$0.isPositional }).isEmpty { usage += " [options]" }
        for positional in positionals { usage += " " + positional.synopsis }

        var text = "\(command.abstract)\n\nUSAGE: \(usage)\n"
        if !command.discussion.isEmpty { text += "\n\(command.discussion)\n" }
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n" + table(positionals.map { ($0.key.uppercased(), $0.help) })
        }
        let options = (own.filter { !$0.isPositional } + inherited).map { definition in
            var left = definition.synopsis
            if let short = definition.shortName { left = "-\(short), " + left }
            var help = definition.help
            if let value = definition.defaultValue { help += " (default \(value))" }
            if let variable = definition.environment { help += " (env \(variable))" }
            return (left, help)
        }
        text += "\nOPTIONS:\n" + table(options + [("-h, --help", "Show this help.")])
        if !command.subcommands.isEmpty {
            text +=
                "\nCOMMANDS:\n"
                + table(command.subcommands.map { ($0.configuration.name, $0.configuration.abstract) })
            text += "\nSee '\(commandPath) <command> --help' for a command's own options.\n"
        }
        return text
    }

    private static func table(_ rows: [(String, String)]) -> String {
        let width = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
        return rows.map { left, right in
            let padding =
                left.count < width
                ? String(repeating: " ", count: width - left.count)
                : "\n"
                    + String(
                        repeating: " ", count: width + 2)
            return "  \(left)\(padding)\(right)\n"
        }.joined()
    }
}
