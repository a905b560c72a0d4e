import BarkeepCommandLine
import BarkeepCore
import BarkeepServer
import BarkeepTestSupport
import Foundation
import Testing

@testable import barkeep
@testable import barkeepd

/// docs/cli.md against the code: every command of `barkeep` has a row in the command table with the role of the
/// protocol commands it sends and a section whose synopsis names exactly its options; every default an option
/// declares is stated; the global options and barkeepd's options are the ones declared. Commands added later are
/// covered without touching this file.
@Suite("docs/cli.md matches the CLI's configurations and the command table")
struct CLIReferenceTests {
    /// The repository root.
    static let root = SourceTree.root

    /// A command of `barkeep` that runs: its words after `barkeep` and its type.
    struct Leaf {
        var words: String
        var type: any RunnableCommand.Type
        var inherited: [ArgumentDefinition]
        var options: [ArgumentDefinition] { type.configuration.arguments.filter { !$0.isPositional } }
    }

    /// Every command that runs, walking the tree from `barkeep`.
    static func leaves() -> [Leaf] {
        var found: [Leaf] = []
        func walk(_ type: any ParsableCommand.Type, words: [String], inherited: [ArgumentDefinition]) {
            let configuration = type.configuration
            if let runnable = type as? any RunnableCommand.Type {
                found.append(Leaf(words: words.joined(separator: " "), type: runnable, inherited: inherited))
            }
            for subcommand in configuration.subcommands {
                walk(
                    subcommand, words: words + [subcommand.configuration.name],
                    inherited: inherited + configuration.arguments.filter { !$0.isPositional })
            }
        }
        walk(BarkeepCommand.self, words: [], inherited: [])
        return found
    }

    /// The role docs/cli.md must state for `leaf`: the highest least role of the protocol commands it sends.
    static func role(of leaf: Leaf) -> String? {
        let names = leaf.type.requests ?? [leaf.words.uppercased()]
        var highest: Role?
        for name in names {
            guard let command = CommandTable.standard.commands.first(where: { $0.name == name }) else {
                Issue.record(
                    Comment(
                        rawValue: "barkeep \(leaf.words) sends \(name), which CommandTable.standard does not hold; "
                            + "declare the protocol commands it sends in its `requests`"))
                return nil
            }
            if let role = command.minimumRole, highest.map({ role > $0 }) ?? true { highest = role }
        }
        return highest?.rawValue ?? "none"
    }

    /// The names a section heading documents: "`barkeep source pause`, `resume`, `run-now`" documents three.
    static func documentedCommands(_ title: String) -> [String] {
        let spans = MarkdownDocument.codeSpans(title)
        guard let first = spans.first, first.hasPrefix("barkeep ") else { return [] }
        let words = first.dropFirst("barkeep ".count).split(separator: " ").map(String.init)
        return [words.joined(separator: " ")]
            + spans.dropFirst().map { (words.dropLast() + [$0]).joined(separator: " ") }
    }

    /// Whether the blocks of `section` state `definition`'s default: a table with a `default` column gives it in
    /// the option's row, otherwise a paragraph, list item or row naming the option says "default" and the value.
    static func statesDefault(_ definition: ArgumentDefinition, in section: MarkdownDocument.Section) -> Bool {
        guard let value = definition.defaultValue else { return true }
        let option = "`--\(definition.key)"
        for table in section.tables {
            guard let column = table.header.firstIndex(of: "default") else { continue }
            for row in table.rows where row.cells.first?.hasPrefix(option) == true {
                return row.cells.count > column && MarkdownDocument.codeSpans(row.cells[column]).first == value
            }
        }
        return section.blocks.contains { block in
            block.text.contains(option) && block.text.lowercased().contains("default")
                && containsWord(value, in: block.text)
        }
    }

    /// Whether `word` occurs in `text` with no letter or digit right before or after it.
    static func containsWord(_ word: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: word) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if ![before, after].contains(where: { $0?.isLetter == true || $0?.isNumber == true }) { return true }
            rest = text[range.upperBound...]
        }
        return false
    }

    @Test("the command table lists every command, none more, each with its role, as the abstracts state it")
    func commandTable() throws {
        let docs = try MarkdownDocument("docs/cli.md", root: Self.root)
        let overview = try #require(docs.section("`barkeep`"), "docs/cli.md has no section `barkeep`")
        let table = try #require(overview.tables.first { $0.header.first == "command" })
        var rows: [String: (line: Int, role: String)] = [:]
        for row in table.rows {
            guard let name = MarkdownDocument.codeSpans(row.cells[0]).first, row.cells.count >= 3 else { continue }
            rows[name] = (row.line, row.cells[2])
        }
        let leaves = Self.leaves()
        for leaf in leaves {
            guard let row = rows[leaf.words] else {
                Issue.record("docs/cli.md:\(overview.line): the command table has no row for barkeep \(leaf.words)")
                continue
            }
            guard let role = Self.role(of: leaf) else { continue }
            let abstract = leaf.type.configuration.abstract
            for stated in Role.allCases where abstract.contains("(\(stated.rawValue)") {
                #expect(
                    stated.rawValue == role,
                    "the abstract of barkeep \(leaf.words) says \(stated.rawValue), its requests need \(role)")
            }
            #expect(
                row.role == role || row.role.hasPrefix(role + ";"),
                "docs/cli.md:\(row.line): barkeep \(leaf.words) needs the role \(role), the table says '\(row.role)'")
        }
        for (name, row) in rows where !leaves.contains(where: { $0.words == name }) {
            Issue.record("docs/cli.md:\(row.line): the command table names barkeep \(name), which does not exist")
        }
    }

    @Test("each command has a section whose synopsis names exactly its options, with every default stated")
    func commandSections() throws {
        let docs = try MarkdownDocument("docs/cli.md", root: Self.root)
        var sections: [String: MarkdownDocument.Section] = [:]
        for section in docs.sections {
            for name in Self.documentedCommands(section.title) { sections[name] = section }
        }
        let leaves = Self.leaves()
        for leaf in leaves {
            guard let section = sections[leaf.words] else {
                Issue.record("docs/cli.md has no section `barkeep \(leaf.words)`")
                continue
            }
            let place = "docs/cli.md:\(section.line) (barkeep \(leaf.words))"
            // The synopses: the code blocks of the section that start with the command, not with a prompt.
            let synopsis = section.codeBlocks.filter { $0.first?.hasPrefix("barkeep \(leaf.words)") == true }
                .joined().joined(separator: " ")
            let written = MarkdownDocument.longOptions(synopsis)
            let declared = Set(leaf.options.map(\.key))
            let allowed = declared.union(leaf.inherited.map(\.key))
            for missing in declared.subtracting(written).sorted() {
                Issue.record("\(place): the synopsis does not name --\(missing)")
            }
            for unknown in written.subtracting(allowed).sorted() {
                Issue.record("\(place): the synopsis names --\(unknown), which barkeep \(leaf.words) does not take")
            }
            for definition in leaf.options where !Self.statesDefault(definition, in: section) {
                Issue.record(
                    Comment(
                        rawValue: "\(place): --\(definition.key) defaults to \(definition.defaultValue ?? ""); no "
                            + "paragraph or table row naming `--\(definition.key)` says so"))
            }
        }
        for (name, section) in sections where !leaves.contains(where: { $0.words == name }) {
            Issue.record("docs/cli.md:\(section.line): a section documents barkeep \(name), which does not exist")
        }
    }

    /// Checks an options table (first column `--name VALUE`, an `environment` column) against `definitions`.
    static func checkOptions(
        _ table: (header: [String], rows: [(line: Int, cells: [String])]),
        _ definitions: [ArgumentDefinition],
        program: String,
        section: MarkdownDocument.Section
    ) {
        let environment = table.header.firstIndex(of: "environment")
        var documented: Set<String> = []
        for row in table.rows {
            let options = MarkdownDocument.longOptions(row.cells[0]).subtracting(["help"])
            guard let name = options.first else { continue }
            documented.insert(name)
            guard let definition = definitions.first(where: { $0.key == name }) else {
                Issue.record("docs/cli.md:\(row.line): \(program) has no option --\(name)")
                continue
            }
            if let environment, row.cells.count > environment {
                let stated = MarkdownDocument.codeSpans(row.cells[environment]).first
                #expect(
                    stated == definition.environment,
                    "docs/cli.md:\(row.line): --\(name) reads \(definition.environment ?? "no variable"), not \(stated ?? "none")"
                )
            }
        }
        for definition in definitions where !definition.isPositional {
            if !documented.contains(definition.key) {
                Issue.record("docs/cli.md:\(section.line): the options of \(program) do not list --\(definition.key)")
            }
            if !statesDefault(definition, in: section) {
                Issue.record(
                    Comment(
                        rawValue: "docs/cli.md:\(section.line): --\(definition.key) of \(program) defaults to "
                            + "\(definition.defaultValue ?? ""), which its row does not say"))
            }
        }
    }

    @Test("the global options of barkeep and the options of barkeepd are the declared ones, defaults included")
    func programOptions() throws {
        let docs = try MarkdownDocument("docs/cli.md", root: Self.root)
        let global = try #require(docs.section("Global options"), "docs/cli.md has no section Global options")
        let globalTable = try #require(global.tables.first, "docs/cli.md:\(global.line): no table")
        Self.checkOptions(globalTable, BarkeepCommand.configuration.arguments, program: "barkeep", section: global)
        let daemon = try #require(docs.section("`barkeepd`"), "docs/cli.md has no section `barkeepd`")
        let daemonTable = try #require(daemon.tables.first, "docs/cli.md:\(daemon.line): no table")
        Self.checkOptions(daemonTable, DaemonCommand.configuration.arguments, program: "barkeepd", section: daemon)
    }

    @Test("docs/operations.md states the metrics endpoint's clients, deadline and eviction age as the code has them")
    func metricsBounds() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("at most \(MetricsEndpoint.maximumClients) at once"))
        #expect(text.contains("has \(MetricsEndpoint.requestDeadline.components.seconds) seconds in all"))
        let age = Int(MetricsEndpoint.evictionAge.components.attoseconds / 1_000_000_000_000_000)
        #expect(MetricsEndpoint.evictionAge.components.seconds == 0)
        #expect(text.contains("connected for \(age) ms at least") && text.contains("within the last \(age) ms"))
    }
}
