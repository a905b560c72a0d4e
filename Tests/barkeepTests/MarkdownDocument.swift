import Foundation

/// A Markdown file read the way the reference tests need it: headings outside code, their sections, fenced blocks,
/// tables and paragraphs, each with the line it starts on so a failure can say where to look.
struct MarkdownDocument {
    /// One heading and the lines under it, up to the next heading of its level or above.
    struct Section {
        /// The heading's level (the number of `#`).
        var level: Int
        /// The heading's text, without the `#`s.
        var title: String
        /// The heading's line number, from 1.
        var line: Int
        /// The section's lines after the heading, with their numbers.
        var body: [(number: Int, text: String)]

        /// The fenced code blocks of the section, each as its lines (the fences left out).
        var codeBlocks: [[String]] {
            var blocks: [[String]] = []
            var current: [String]?
            for (_, text) in body {
                if text.hasPrefix("```") {
                    if let block = current {
                        blocks.append(block)
                        current = nil
                    } else {
                        current = []
                    }
                } else if current != nil {
                    current?.append(text)
                }
            }
            return blocks
        }

        /// The section's blocks of prose outside code, with their first line: a table row, a list item with its
        /// continuation lines, or a paragraph.
        var blocks: [(line: Int, text: String)] {
            var blocks: [(line: Int, text: String)] = []
            var isCode = false
            var isOpen = false
            for (number, text) in body {
                if text.hasPrefix("```") {
                    isCode.toggle()
                    isOpen = false
                    continue
                }
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if isCode || trimmed.isEmpty {
                    isOpen = false
                } else if trimmed.hasPrefix("|") || trimmed.hasPrefix("- ") || !isOpen {
                    blocks.append((number, trimmed))
                    isOpen = !trimmed.hasPrefix("|")
                } else {
                    blocks[blocks.count - 1].text += " " + trimmed
                }
            }
            return blocks
        }

        /// The section's tables, each as its header cells and its rows (cells and line number).
        var tables: [(header: [String], rows: [(line: Int, cells: [String])])] {
            var tables: [(header: [String], rows: [(line: Int, cells: [String])])] = []
            var isCode = false
            var previousWasTable = false
            for (number, text) in body {
                if text.hasPrefix("```") { isCode.toggle() }
                guard !isCode, text.hasPrefix("|") else {
                    previousWasTable = false
                    continue
                }
                let cells = MarkdownDocument.cells(text)
                if !previousWasTable {
                    tables.append((cells, []))
                } else if !cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) {
                    tables[tables.count - 1].rows.append((number, cells))
                }
                previousWasTable = true
            }
            return tables
        }
    }

    /// Every heading outside fenced code, with its section.
    let sections: [Section]

    /// Reads `path` under the repository root.
    init(_ path: String, root: URL) throws {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        var headings: [(level: Int, title: String, index: Int)] = []
        let lines = text.components(separatedBy: "\n")
        var isCode = false
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") { isCode.toggle() }
            guard !isCode, line.hasPrefix("#") else { continue }
            let level = line.prefix { $0 == "#" }.count
            let title = line.dropFirst(level).trimmingCharacters(in: .whitespaces)
            headings.append((level, title, index))
        }
        sections = headings.enumerated().map { position, heading in
            let end =
                headings[(position + 1)...].first { $0.level <= heading.level }?.index ?? lines.count
            let body = (heading.index + 1..<end).map { (number: $0 + 1, text: lines[$0]) }
            return Section(level: heading.level, title: heading.title, line: heading.index + 1, body: body)
        }
    }

    /// The first section whose title is `title`.
    func section(_ title: String) -> Section? { sections.first { $0.title == title } }

    /// The cells of a table row, trimmed, with `\|` kept as a bar inside a cell.
    static func cells(_ row: String) -> [String] {
        let protected = row.replacingOccurrences(of: "\\|", with: "\u{1}")
        return protected.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
            $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces)
        }
    }

    /// The texts between backticks in `text`.
    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }

    /// The long options (`--name`) written in `text`.
    static func longOptions(_ text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            let before = range.lowerBound == rest.startIndex ? " " : rest[rest.index(before: range.lowerBound)]
            if let first = name.first, first.isLetter, !(before.isLetter || before.isNumber || before == "-") {
                found.insert(String(name))
            }
            rest = rest[range.upperBound...]
        }
        return found
    }
}
