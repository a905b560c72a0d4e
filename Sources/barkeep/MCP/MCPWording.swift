import Foundation

/// The one place where a message an agent reads is put in MCP's words: the daemon's refusals and the CLI code's
/// errors name CLI options (`--force`, `--item TITLE`) and wire keys (`commit-time`, `force=yes`), and an agent can
/// only give a tool's arguments (`force: true`, `commit_time`).
///
/// Driven by the tool's input schema: an option or key is reworded when it names one of the tool's arguments (its
/// name with `-` for `_`, or the tool's `wireKeys`, from its fields); a boolean argument reads `force: true`. A phrase about the
/// wire's own syntax (`, sdk=VERSION on the wire`) is dropped. Options and keys that name no argument of the tool
/// are left as they are.
enum MCPWording {
    /// `message` in the words of `tool`'s arguments; with no tool, only the wire's phrases are dropped.
    static func reworded(_ message: String, for tool: MCPTool?) -> String {
        var text = message.replacing(#/,? \(?[a-z][a-z-]*=[A-Z][A-Z0-9]* on the wire\)?/#, with: "")
        guard let tool else { return text }
        let arguments = tool.inputSchema["properties"] as? [String: Any] ?? [:]
        // The CLI option or wire key of each argument, and back.
        var argumentOf: [String: String] = [:]
        for name in arguments.keys.sorted() {
            argumentOf[tool.wireKeys[name] ?? name.replacingOccurrences(of: "_", with: "-")] = name
        }
        func isBoolean(_ name: String) -> Bool {
            ((arguments[name] as? [String: Any])?["type"] as? String) == "boolean"
        }
        // `--force`, `--item TITLE`: the option and its placeholder.
        text = text.replacing(#/--([a-z][a-z0-9-]*)(?: [A-Z][A-Z0-9_]*\b)?/#) { match in
            guard let name = argumentOf[String(match.output.1)] else { return String(match.output.0) }
            return isBoolean(name) ? "\(name): true" : name
        }
        // `force=yes`, `sdk=VERSION`: a wire key and its value.
        text = text.replacing(#/\b([a-z][a-z0-9-]*)=([^\s,;)]*)/#) { match in
            guard let name = argumentOf[String(match.output.1)] else { return String(match.output.0) }
            let value = String(match.output.2)
            if isBoolean(name) { return "\(name): \(value == "no" ? "false" : "true")" }
            let isPlaceholder = value.isEmpty || value == "…" || value.allSatisfy { $0.isUppercase || $0.isNumber }
            return isPlaceholder ? name : "\(name): \(value)"
        }
        // `commit-time`: a wire key spelt with a hyphen, alone.
        return text.replacing(#/\b[a-z]+(?:-[a-z]+)+\b/#) { match in
            argumentOf[String(match.output)] ?? String(match.output)
        }
    }
}
