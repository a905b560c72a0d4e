import BarkeepAPI
import BarkeepCore
import BarkeepReport
import Foundation

/// The forms `barkeep check` prints a check's answer in, besides its JSON: text for people, Markdown for a
/// pull-request comment, SARIF for a code-scanning upload.
enum CheckReport {
    /// The count line every form but SARIF starts with: `Check of app against latest: 2 new, 0 reopened, 1 changed,
    /// 80 tracked, 3 fixes.`
    static func countLine(_ summary: CheckSummary, project: String) -> String {
        let counts = summary.counts
        return "Check of \(project) against \(summary.base.text): \(counts.new) new, \(counts.reopened) reopened, "
            + "\(counts.changed) changed, \(counts.tracked) tracked, \(counts.fixes) fixes."
    }

    /// The result line: `Result: fail (a new or reopened finding at or above high).`
    static func resultLine(_ summary: CheckSummary) -> String {
        switch summary.result {
        case .fail: "Result: fail (a new or reopened finding at or above \(summary.failOn.rawValue))."
        case .pass: "Result: pass (no new or reopened finding at or above \(summary.failOn.rawValue))."
        }
    }

    /// The new and reopened findings, grouped by screen (screens by key, `unmapped` last).
    static func addedByScreen(_ rows: [CheckRecord]) -> [(screen: String, rows: [CheckRecord])] {
        let groups = Dictionary(grouping: rows.filter(\.kind.isAdded), by: \.screen)
        return groups.keys.sorted { a, b in
            (a == AuditArea.unmapped ? 1 : 0, a) < (b == AuditArea.unmapped ? 1 : 0, b)
        }.map { ($0, groups[$0] ?? []) }
    }

    /// `Sources/A.swift:12`, or the file alone without a line.
    static func place(_ row: CheckRecord) -> String { row.line.map { "\(row.file):\($0)" } ?? row.file }

    /// `step 3 title-and-symbol, tier 1`, or what of them is known; empty when neither.
    static func stepAndTier(_ row: CheckRecord) -> String {
        let step = row.step.map { number in "step " + (ChecklistStep.numbered(number)?.name ?? String(number)) }
        return [step, row.tier.map { "tier \($0)" }].compactMap { $0 }.joined(separator: ", ")
    }

    /// The text form: the count line, the new and reopened findings by screen, the fixed ones, the result.
    static func text(_ reply: CheckUploadRequest.Reply, summary: CheckSummary, project: String) -> String {
        var lines = [countLine(summary, project: project)]
        for (screen, rows) in addedByScreen(reply.rows) {
            lines.append("")
            lines.append(Output.bold(screen))
            for row in rows {
                let number = row.number.map { " #\($0)" } ?? ""
                lines.append(
                    "  \(row.kind.rawValue)\(number)  \(row.severity.rawValue)  \(row.rule)  \(Output.plain(place(row)))"
                        + (stepAndTier(row).isEmpty ? "" : "  (\(stepAndTier(row)))"))
                if let snippet = row.snippet?.trimmingCharacters(in: .whitespaces), !snippet.isEmpty {
                    lines.append("      " + Output.dim(snippet))
                }
            }
        }
        let fixed = reply.rows.filter { $0.kind == .fixed }
        if !fixed.isEmpty {
            lines.append("")
            lines.append(Output.bold("Fixed by this change"))
            for row in fixed {
                lines.append("  #\(row.number ?? 0)  \(row.rule)  \(Output.plain(place(row)))  \(row.screen)")
            }
        }
        lines.append("")
        lines.append(resultLine(summary))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Markdown form, a pull-request comment: the count line (bold), the new and reopened findings by screen as
    /// lists, the fixed ones, the result, and the project's web page when the daemon serves one.
    ///
    /// Each listed finding is one line `- CLASS SEVERITY RULE \`FILE:LINE\` (step …, tier …): \`SNIPPET\``, so a
    /// script (and the tests) can read it back.
    static func markdown(_ reply: CheckUploadRequest.Reply, summary: CheckSummary, project: String) -> String {
        var lines = ["**" + escaped(countLine(summary, project: project)) + "**", ""]
        var added = addedByScreen(reply.rows)
        let addedCount = added.reduce(0) { $0 + $1.rows.count }
        // At most `markdownListed` of them, screen by screen: a comment has a size limit (GitHub's is 65,536
        // characters), and a change that adds hundreds wants the page, not a list.
        var room = markdownListed
        added = added.compactMap { group in
            guard room > 0 else { return nil }
            let kept = Array(group.rows.prefix(room))
            room -= kept.count
            return (group.screen, kept)
        }
        if !added.isEmpty {
            lines.append("### New and reopened findings by screen")
            for (screen, rows) in added {
                lines.append("")
                lines.append("#### " + escaped(screen))
                lines.append("")
                for row in rows {
                    let number = row.number.map { " #\($0)" } ?? ""
                    let details = stepAndTier(row)
                    let snippet = excerpt(row.snippet?.trimmingCharacters(in: .whitespaces) ?? "")
                    lines.append(
                        "- \(row.kind.rawValue)\(number) \(row.severity.rawValue) \(escaped(row.rule)) "
                            + code(place(row)) + (details.isEmpty ? "" : " (\(details))")
                            + (snippet.isEmpty ? "" : ": " + code(snippet)))
                }
            }
            lines.append("")
        }
        if addedCount > markdownListed {
            lines.append("")
            lines.append(more(addedCount - markdownListed, "new or reopened finding", web: summary.web))
        }
        let fixed = reply.rows.filter { $0.kind == .fixed }
        if !fixed.isEmpty {
            lines.append("### Fixed by this change")
            lines.append("")
            for row in fixed.prefix(markdownListed) {
                lines.append(
                    "- fixed #\(row.number ?? 0) \(row.severity.rawValue) \(escaped(row.rule)) " + code(place(row)))
            }
            if fixed.count > markdownListed {
                lines.append("")
                lines.append(more(fixed.count - markdownListed, "fixed finding", web: summary.web))
            }
            lines.append("")
        }
        lines.append(resultLine(summary))
        if let web = summary.web {
            lines.append("")
            lines.append("[\(escaped(project)) on Barkeep](\(web))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The most findings of each list the Markdown shows (new and reopened; fixed): 50 lines of at most a path and a
    /// 200-character snippet keep a comment well under GitHub's 65,536 characters.
    static let markdownListed = 50

    /// The line after a list cut at `markdownListed`: `…and 12 more new or reopened findings not listed: …`.
    static func more(_ count: Int, _ noun: String, web: String?) -> String {
        "…and \(count) more \(count == 1 ? noun : noun + "s") "
            + (web == nil
                ? "not listed: `barkeep check --format json` lists them all."
                : "not listed: the project's page and `barkeep check --format json` have them all.")
    }

    /// A snippet cut to 200 characters, with an ellipsis when it was longer.
    static func excerpt(_ text: String) -> String { text.count > 200 ? String(text.prefix(199)) + "…" : text }

    /// Text with Markdown's punctuation escaped, so a file or rule name cannot make a link or emphasis.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_{}[]()#+!|<>".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// Text as inline code: backticks in it are replaced (a path never holds one in practice), line breaks too.
    static func code(_ text: String) -> String {
        "`" + text.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "\n", with: " ") + "`"
    }

    /// The SARIF form: the new and reopened findings only, through `findings --format sarif`'s writer, each with
    /// Barkeep's identity in `partialFingerprints` and the status the sync would give it (proposed).
    static func sarif(_ reply: CheckUploadRequest.Reply) throws -> String {
        let records = reply.rows.filter(\.kind.isAdded).map { row in
            var record = FindingRecord()
            record.id = row.number ?? 0
            record.source = FindingSource.scanner.rawValue
            record.rule = row.rule
            record.severity = row.severity.rawValue
            record.identity = row.identity
            record.file = row.file
            record.line = row.line
            record.snippet = row.snippet
            record.message = row.message
            record.status = .proposed
            record.screen = row.screen
            record.step = row.step
            record.tier = row.tier
            return record
        }
        do {
            return try FindingsSARIF.export(records).log
        } catch {
            throw CLIError.badReply("\(error)")
        }
    }
}
