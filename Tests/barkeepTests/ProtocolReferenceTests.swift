import BarkeepServer
import Foundation
import Testing

/// docs/protocol.md's command table against `CommandTable.standard`, both ways: each command's name, the number of
/// positional arguments its shapes allow, its keys and its least role. A command added to the table without a row
/// fails here.
@Suite("docs/protocol.md's command table matches CommandTable.standard")
struct ProtocolReferenceTests {
    /// What the rows of one command say (a command with two shapes has two rows).
    struct Documented {
        var line: Int
        var positional: ClosedRange<Int>
        var keys: Set<String>
        var role: String
    }

    /// The number of positional arguments a cell allows: `—`, or shapes separated by `; or `, each a
    /// comma-separated list whose `[OPTIONAL]` items may be left out and whose `then …` item is the payload.
    static func positional(_ cell: String) -> ClosedRange<Int> {
        guard cell != "—" else { return 0...0 }
        var lowest = Int.max
        var highest = 0
        for shape in cell.components(separatedBy: "; or ") {
            let items = shape.components(separatedBy: " with ")[0].components(separatedBy: ", ")
                .filter { !$0.hasPrefix("then ") }
            let optional = items.filter { $0.hasPrefix("[") }.count
            lowest = min(lowest, items.count - optional)
            highest = max(highest, items.count)
        }
        return lowest...highest
    }

    /// The keys a cell names: its code spans outside parentheses (which hold values and remarks), `the filter
    /// keys` standing for the keys of the findings filter table.
    static func keys(_ cell: String, filterKeys: Set<String>) -> Set<String> {
        var outside = ""
        var depth = 0
        for character in cell {
            if character == "(" { depth += 1 }
            if depth == 0 { outside.append(character) }
            if character == ")" { depth = max(0, depth - 1) }
        }
        var keys = Set(MarkdownDocument.codeSpans(outside))
        if outside.contains("the filter keys") { keys.formUnion(filterKeys) }
        return keys
    }

    @Test("every command of the table has rows with its positional arguments, keys and role; no row names another")
    func commandTable() throws {
        let docs = try MarkdownDocument("docs/protocol.md", root: CLIReferenceTests.root)
        let section = try #require(docs.section("10. Commands"), "docs/protocol.md has no section 10. Commands")
        let table = try #require(section.tables.first { $0.header.first == "command" })
        let filter = try #require(section.tables.first { $0.header == ["key", "chooses"] }, "no filter key table")
        let filterKeys = Set(filter.rows.compactMap { MarkdownDocument.codeSpans($0.cells[0]).first })
        let column = (
            positional: try #require(table.header.firstIndex(of: "positional")),
            keys: try #require(table.header.firstIndex(of: "keys")),
            role: try #require(table.header.firstIndex(of: "least role"))
        )
        var documented: [String: Documented] = [:]
        for row in table.rows {
            guard let name = MarkdownDocument.codeSpans(row.cells[0]).first else { continue }
            let positional = Self.positional(row.cells[column.positional])
            let keys = Self.keys(row.cells[column.keys], filterKeys: filterKeys)
            let role = row.cells[column.role]
            if var earlier = documented[name] {
                earlier.positional =
                    min(
                        earlier.positional.lowerBound, positional.lowerBound)...max(
                        earlier.positional.upperBound, positional.upperBound)
                earlier.keys.formUnion(keys)
                #expect(earlier.role == role, "docs/protocol.md:\(row.line): \(name) has two roles")
                documented[name] = earlier
            } else {
                documented[name] = Documented(line: row.line, positional: positional, keys: keys, role: role)
            }
        }
        let commands = CommandTable.standard.commands
        for command in commands {
            guard let row = documented[command.name] else {
                Issue.record("docs/protocol.md:\(section.line): the command table has no row for \(command.name)")
                continue
            }
            let place = "docs/protocol.md:\(row.line) (\(command.name))"
            let role = command.minimumRole?.rawValue ?? "none"
            #expect(row.role == role, "\(place): the least role is \(role), the table says \(row.role)")
            #expect(
                row.positional == command.positional,
                "\(place): takes \(command.positional) positional arguments, the table says \(row.positional)")
            for key in command.keys.subtracting(row.keys).sorted() {
                Issue.record("\(place): the keys do not name \(key)")
            }
            for key in row.keys.subtracting(command.keys).sorted() {
                Issue.record("\(place): the keys name \(key), which \(command.name) does not take")
            }
        }
        for (name, row) in documented where !commands.contains(where: { $0.name == name }) {
            Issue.record("docs/protocol.md:\(row.line): the command table names \(name), which the server lacks")
        }
    }
}
