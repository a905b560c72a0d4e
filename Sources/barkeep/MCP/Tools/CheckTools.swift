import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// The check tool: check_scan, whose arguments are CHECK's fields by reference, with the scan itself as a string in
/// place of the payload.
enum CheckTools {
    /// check_scan's arguments: the scan's text, then CHECK's fields (its format optional: guessed from the scan).
    struct CheckArguments: WireFields {
        /// The scanner's output (duo_scan JSON or SARIF), as text.
        var scan = ""
        /// What it holds; nil: guessed.
        var format: ScanFormat?
        /// CHECK's request.
        var check = CheckUploadRequest()
        /// The files renamed between the latest run's commit and the scanned one, as `git diff --name-status` prints them;
        /// nil: from git.
        var renames: String?
        /// Whether the check is recorded as a `scan.checked` event; nil: no (an agent's checks leave no trace in the
        /// log and fire no webhook unless it asks).
        var record: Bool?

        /// No arguments, filled by decoding.
        init() {}

        /// `scan`, `format` (CHECK's, optional here), then CHECK's project, commit, branch, base, scope, fail-on,
        /// record and tracked, and the renames as text (CHECK's `renames` is their size in the upload).
        static let fields: [Field<CheckArguments>] =
            [
                Field("scan", \.scan, "The scanner's output (duo_scan JSON or SARIF 2.1.0) as text.")
                    .withSchema(.string(minLength: 1)),
                Field("format", \.format, "What the scan holds: duo-scan or sarif; default: guessed from it."),
            ]
            + Field.group(
                \.check, CheckUploadRequest.fields.filter { !["format", "renames", "record"].contains($0.key) })
            + [
                Field(
                    "renames", \.renames,
                    "The files renamed between the latest run's commit and the scanned one, as git diff --name-status "
                        + "--find-renames BASE HEAD prints them (R<score>, tab, old path, tab, new path); default: from "
                        + "git when barkeep mcp runs in a checkout."),
                Field(
                    "record", \.record,
                    "true: record the check as a scan.checked event, which webhooks and watch see (default: false)."),
            ]
    }

    /// The `check_scan` tool: CHECK of a scan given as text, answering `barkeep check --format json`'s object.
    static var checkScan: MCPTool {
        MCPTool.taking(
            CheckArguments.self, name: "check_scan", title: "Check a scan",
            description: "Compare a scanner run (a pull request's) with the project's tracked findings without "
                + "recording it, as `barkeep check --format json`: each finding new, reopened, changed or tracked, "
                + "the tracked ones it fixes, and result fail when a new or reopened finding is at or above fail_on "
                + "(default high). A reader's token may check. Nothing is written; with record true, one scan.checked "
                + "event.",
            effect: CheckUploadRequest.spec.effect, output: checkOutput
        ) { arguments, call in
            let request = arguments.check
            let command = CheckCommand(
                project: request.project, scanFormat: arguments.format, commit: request.commit?.wire,
                branch: request.branch, base: request.base, failOn: request.failOn, scope: request.scope,
                isRecorded: arguments.record ?? false, includesTracked: request.includesTracked ?? true,
                renames: arguments.renames.map { .text($0) } ?? .git)
            let given = try command.renames.given()
            let client = try call.context.connect()
            let reply = try command.check(
                Array(arguments.scan.utf8), given: given, client: client, context: call.context)
            guard let object = reply.jsonBody as? [String: Any] else { throw CLIError.badReply("CHECK's JSON") }
            guard let summary = reply.summary else { throw CLIError.badReply("CHECK's reply has no summary") }
            return MCPToolOutput(
                structured: object,
                summary: CheckReport.countLine(summary, project: request.project) + " "
                    + CheckReport.resultLine(summary))
        }
    }

    /// What check_scan answers: CHECK's JSON form.
    private static var checkOutput: [String: Any] {
        CheckUploadRequest.jsonBodySchema ?? MCPSchema.object([:])
    }
}
