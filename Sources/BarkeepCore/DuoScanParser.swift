/// Reads the JSON report of the `duo_scan` scanner (format in `shared/fixtures/README.md`).
///
/// Required: `tool` (string) and `findings` (array); in each finding `rule`, `severity` (critical, high, medium,
/// low or info), `file`, `line` (integer ≥ 1) and `snippet` (string, may be empty). Optional, and `null` counts as
/// absent: `version`, `source_files_scanned`, `project.lifecycle`, and each finding's `title` and `advice`. The
/// scanner's `id` (`RULE:path:line`) is not read: it changes whenever lines move, so it is no identity. Members
/// this parser does not use (`summary`, `inventory`, `skill`, `source`, …) are ignored whatever they hold.
///
/// A document that is not JSON, or has a wrong type or a missing member anywhere the parser reads, throws
/// `CoreError.invalidDocument` naming the place (`findings[12].line`, `expected an integer`).
public enum DuoScanParser {
    /// The severities duo_scan reports, most severe first.
    private static let severities = ["critical", "high", "medium", "low", "info"]

    /// Parses a whole duo_scan JSON document.
    public static func parse(_ bytes: [UInt8]) throws(CoreError) -> ScanReport {
        let root = try JSONObjectReader.parseDocument(bytes)
        do {
            return try report(from: root)
        } catch {
            throw error.coreError
        }
    }

    private static func report(from root: JSONObjectReader) throws(JSONProblem) -> ScanReport {
        let tool = try root.requiredString("tool")
        let toolVersion = try root.string("version")
        let filesScanned = try root.integer("source_files_scanned", minimum: 0)
        let lifecycle = try root.string(in: "project", "lifecycle")

        let elements = try root.requiredArray("findings")
        var findings: [ScanFinding] = []
        findings.reserveCapacity(elements.count)
        // One do/catch around the loop, not one per element: the index is only turned into a path on failure.
        var index = 0
        do {
            while index < elements.count {
                findings.append(try finding(from: JSONObjectReader(elements[index])))
                index += 1
            }
        } catch {
            throw error.inside(.key("findings"), .index(index))
        }

        return ScanReport(
            format: .duoScan,
            tool: tool,
            toolVersion: toolVersion,
            filesScanned: filesScanned,
            lifecycle: lifecycle,
            findings: findings
        )
    }

    private static func finding(from object: JSONObjectReader) throws(JSONProblem) -> ScanFinding {
        let rule = try object.requiredString("rule")
        let title = try object.string("title")
        let severity = try object.requiredString("severity")
        guard isSeverity(severity) else {
            throw JSONProblem(at: .key("severity"), problem: JSONProblem.expectedOne(of: severities))
        }
        return ScanFinding(
            rule: rule,
            title: title,
            severity: severity,
            file: try object.requiredString("file"),
            line: try object.requiredInteger("line", minimum: 1),
            snippet: try object.requiredString("snippet"),
            message: try object.string("advice")
        )
    }

    private static func isSeverity(_ word: String) -> Bool {
        switch word {
        case "critical", "high", "medium", "low", "info": true
        default: false
        }
    }
}
