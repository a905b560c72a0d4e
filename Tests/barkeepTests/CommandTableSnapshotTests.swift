import BarkeepServer
import Foundation
import Testing

/// Every command of `CommandTable.standard` as one line of text — name, positional range, what the leading
/// positionals name, keys (required `!`, repeatable `+`), least role, payload, constant reply — compared with
/// `Golden/command-table.txt`. The safety net under the command spec (issue 26): a command converted to its spec
/// must derive exactly the table it had.
@Suite("CommandTable.standard equals its snapshot")
struct CommandTableSnapshotTests {
    private static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/command-table.txt")

    /// One command's line.
    static func line(_ command: Command) -> String {
        let keys = command.keys.sorted().map { key in
            key + (command.requiredKeys.contains(key) ? "!" : "") + (command.repeatableKeys.contains(key) ? "+" : "")
        }
        // The kinds the table checks: one per positional it may be given (past the list, `other`).
        let arguments = (0..<command.positional.upperBound).map { index in
            index < command.arguments.count ? "\(command.arguments[index])" : "other"
        }
        var fields = [
            command.name,
            "positional=\(command.positional.lowerBound)...\(command.positional.upperBound)",
            "arguments=[\(arguments.joined(separator: ","))]",
            "keys=[\(keys.joined(separator: ","))]",
            "role=\(command.minimumRole?.rawValue ?? "none")",
        ]
        if command.takesPayload { fields.append("payload") }
        if let reply = command.constantReply {
            fields.append("constant=\(String(decoding: reply, as: UTF8.self).debugDescription)")
        }
        return fields.joined(separator: " | ")
    }

    @Test("every command's name, arity, argument kinds, keys, role and payload are as committed")
    func snapshot() throws {
        let text = CommandTable.standard.commands.map(Self.line).joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["BARKEEP_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: Self.golden)
        }
        let golden = try String(contentsOf: Self.golden, encoding: .utf8)
        let mine = text.split(separator: "\n")
        let theirs = golden.split(separator: "\n")
        #expect(mine.count == theirs.count)
        for (line, expected) in zip(mine, theirs) { #expect(line == expected) }
    }
}
