import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import BarkeepReport
import Foundation

/// `findings --format csv|sarif`: the findings the filters select as a spreadsheet or as a SARIF log for code
/// scanning, on standard output. `FindingsCommand` builds the `FINDINGS` request from its filters as for the text
/// list and hands it here.
struct FindingsExport {
    /// What `--format` names.
    enum Format: String, CaseIterable {
        /// The table (`findings` without `--format`); no export.
        case text
        /// RFC 4180 CSV (`FindingsCSV`).
        case csv
        /// SARIF 2.1.0 (`FindingsSARIF`).
        case sarif
    }

    /// The `--format` option, for the command's arguments.
    static let option = ArgumentDefinition.option(
        "format", valueName: "FORMAT", default: Format.text.rawValue,
        help: "text; csv, a row per finding; sarif, open and suppressed findings for code scanning.")

    let format: Format
    /// Whether `--status` was given: without it, a SARIF log asks for every status it exports.
    let hasStatus: Bool

    /// The export `parsed` asks for; nil for the text table. `--format csv|sarif` with `--json` is a usage error.
    init?(_ parsed: ParsedCommand) throws(UsageError) {
        let text = parsed.valueOrDefault("format") ?? ""
        guard let format = Format(rawValue: text) else {
            throw UsageError(
                "--format must be " + Format.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", not \(ValueExcerpt.quoted(text))",
                commandPath: parsed.commandPath)
        }
        guard format != .text else { return nil }
        if parsed.flag("json") {
            throw UsageError("--json and --format \(text) are two outputs: give one", commandPath: parsed.commandPath)
        }
        self.format = format
        hasStatus = parsed.value("status") != nil
    }

    /// Sends `request` (for a SARIF log without `--status`, asking for every status the log exports) and prints the
    /// export.
    func run(_ request: FindingsRequest, _ context: CLIContext) throws {
        switch format {
        case .text:
            return
        case .csv:
            print(FindingsCSV.document(try context.send(request).rows), terminator: "")
        case .sarif:
            let records = try sarifRecords(request, context)
            let export = try decoded { () throws(ReportError) in try FindingsSARIF.export(records) }
            print(export.log, terminator: "")
            var leftOut: [String] = []
            if export.withoutFile > 0 {
                leftOut.append(Output.count(export.withoutFile, "finding") + " without a file")
            }
            if export.closed > 0 { leftOut.append(Output.count(export.closed, "fixed or verified finding")) }
            if !leftOut.isEmpty {
                FileHandle.standardError.write(
                    Data("barkeep: the SARIF log leaves out \(leftOut.joined(separator: " and ")).\n".utf8))
            }
        }
    }

    /// The records a SARIF log is made of: those of `request` when `--status` chose, else those of every status the
    /// log exports (open findings and verdicts), in one request.
    private func sarifRecords(_ request: FindingsRequest, _ context: CLIContext) throws(CLIError) -> [FindingRecord] {
        var request = request
        if !hasStatus {
            request.filters.status = FindingsSARIF.exportedStatuses.map(\.rawValue).joined(separator: ",")
        }
        return try context.send(request).rows
    }
}
