import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// The scan tools: ingest_scan, whose arguments are INGEST's fields by reference, with the file to upload in place
/// of the payload.
enum ScanTools {
    /// ingest_scan's arguments: the file, its format (guessed when absent), and INGEST's other fields.
    struct IngestArguments: WireFields {
        /// The file's path on this machine.
        var path = ""
        /// What it holds; nil: guessed from the file.
        var format: ScanFormat?
        /// INGEST's request (its format set from the file).
        var upload = IngestUploadRequest()
        /// The files renamed since the latest run, as `git diff --name-status` prints them; nil: from git.
        var renames: String?

        /// No arguments, filled by decoding.
        init() {}

        /// `path`, `format` (INGEST's, optional here), then INGEST's project, commit, commit-time, scope and force,
        /// and the renames as text (INGEST's `renames` is their size in the upload).
        static let fields: [Field<IngestArguments>] =
            [
                Field(
                    "path", \.path, "The file's path on the machine barkeep mcp runs on.",
                    check: { $0 == "-" ? ValueProblem("path: give a file (standard input is MCP's)") : nil }
                ).withSchema(.string(minLength: 1)),
                Field("format", \.format, "What the file holds; default: guessed from the file."),
            ] + Field.group(\.upload, IngestUploadRequest.fields.filter { !["format", "renames"].contains($0.key) })
            + [
                Field(
                    "renames", \.renames,
                    "The files renamed since the latest run, as git diff --name-status --find-renames BASE HEAD "
                        + "prints them (R<score>, tab, old path, tab, new path); default: from git when barkeep mcp "
                        + "runs in a checkout.")
            ]
    }

    /// The `ingest_scan` tool: INGEST of a file this machine reads (ScanFile), as `barkeep ingest --json`.
    static var ingestScan: MCPTool {
        MCPTool.taking(
            IngestArguments.self, name: "ingest_scan", title: "Ingest a scan",
            description: "Upload a scanner run (duo_scan JSON or SARIF 2.1.0) from a file on this machine and sync "
                + "the project's findings with it, or an SDK check, as `barkeep ingest --json`. The same file twice "
                + "changes nothing. A relative path is taken from the directory barkeep mcp runs in. What is not a "
                + "regular file (a FIFO, a device, a directory) is refused at once (BADARG); a token that may not "
                + "ingest (FORBIDDEN) and a file over the daemon's upload limit (TOOLONG) are refused before the "
                + "file is read. A scan of a commit already ingested, or older than the latest run's, is refused "
                + "(CONFLICT) unless force. Without commit_time, barkeep mcp asks git for the commit's time when it "
                + "runs in a repository that has the commit. Findings in renamed files keep their rows (pass 3): "
                + "renames gives the list, else barkeep mcp sends git's when it runs in a checkout, as barkeep "
                + "ingest does.",
            effect: IngestUploadRequest.spec.effect, dependencies: ["commit_time": ["commit"]], output: ingestOutput
        ) { arguments, call in
            let upload = arguments.upload
            let command = IngestCommand(
                project: upload.project, file: arguments.path, format: arguments.format,
                commit: upload.commit?.wire, commitTime: upload.commitTime?.wire,
                isForced: upload.isForced == true, scope: upload.scope,
                renames: arguments.renames.map { .text($0) } ?? .git)
            let reply = try command.upload(call.context)
            let summary =
                switch reply {
                case .ok(let scan): IngestCommand.sentence(scan)
                case .records(_, let check):
                    "SDK check, run \(check.run): \(check.unblocked) unblocked, \(check.blocked) blocked."
                }
            return MCPToolOutput(structured: IngestCommand.json(reply), summary: summary)
        }
    }

    /// What ingest_scan answers: a scan's counts (`barkeep ingest --json`), or an SDK check's object.
    private static var ingestOutput: [String: Any] {
        var properties: [String: [String: Any]] = ["repeat": MCPSchema.boolean("Already ingested: nothing changed.")]
        for key in IngestCommand.countKeys + ["symbols", "found", "unblocked", "blocked"] {
            properties[key] = ["type": "integer"]
        }
        properties["sdk"] = ["type": "string"]
        properties["project_sdk"] = ["type": "string"]
        properties["changes"] = MCPSchema.array(MCPSchema.object([:]), "An SDK check's unblocked and blocked items.")
        return MCPSchema.object(properties, required: ["run", "repeat"])
    }
}
