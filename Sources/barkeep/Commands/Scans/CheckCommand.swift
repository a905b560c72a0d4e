import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep check PROJECT FILE|-`: compares a scan with the project's tracked findings without recording it, prints
/// what the change adds, and exits 1 when the gate fails.
struct CheckCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Compare a scan (a pull request's) with the project's tracked findings without recording it; exit 1 "
            + "when it adds a finding at or above --fail-on (reader).",
        discussion: """
            FILE - reads standard input; its format is guessed as barkeep ingest guesses it unless --scan-format
            says. Nothing is written but one scan.checked event (--no-record: not even that). Each finding of the
            scan is new (no tracked finding matches it), reopened (it matches a fixed one), changed (its open
            finding's flagged line was edited in place) or tracked (open, or a declined, kept or false-positive
            verdict); the tracked findings the scan no longer reports are the ones the change fixes. --base RUN
            compares with the findings as they stood after run RUN (see docs/sync.md, Checks) instead of today's.
            The check fails when a new or reopened finding's severity is at or above --fail-on (default high):
            exit 1, else 0; 64 for a usage error, and 2 when it could not check (the daemon unreachable or an
            error reply, a file that cannot be read), so that a CI job tells a failed gate from a check that did
            not run. In a git checkout, the files renamed between the latest run's commit and --commit (else HEAD)
            go with the scan, as barkeep ingest sends them, so findings in a renamed file stay tracked.
            The text, markdown and sarif forms count the tracked findings the scan still reports; json lists them
            too, one row each.
            --format text (default) prints the count line, the new and reopened findings by screen with their
            checklist step and tier, the fixed ones and the result; markdown a pull-request comment (the count line
            first, then the same lists and a link to the project's web page when the daemon serves one); sarif a
            SARIF 2.1.0 log of the new and reopened findings, Barkeep's identity in partialFingerprints; json (or
            --json) {"rows":[{"class","number","identity","rule","severity","file","line","screen","step","tier",
            "status","reason","snippet","message"}…],"summary":{"new","reopened","changed","tracked","fixes",
            "base","fail_on","result","web"}}.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("file", help: "The scanner's output, or - for standard input."),
            .option(
                "format", valueName: "FORMAT",
                help: "What to print: " + OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                    + " (default: text)."),
            .option("scan-format", valueName: "FORMAT", help: "duo-scan or sarif (default: guessed)."),
            .option("commit", valueName: "SHA", help: "The commit that was scanned (recorded on the event)."),
            .option("branch", valueName: "NAME", help: "The branch that was scanned (recorded on the event)."),
            .option("base", valueName: "latest|RUN", help: "The state to compare with (default: latest)."),
            .option(
                "fail-on", valueName: "SEVERITY",
                help: "Fail at a new or reopened finding of this severity or above: "
                    + Severity.allCases.map(\.rawValue).joined(separator: ", ")
                    + " (default: \(CheckGate.defaultFailOn.rawValue))."),
            .option("scope", valueName: "PREFIX", help: "The path prefix the scan covered (default: everything)."),
            .flag("no-record", help: "Record not even the check's event."),
            .option(
                "max-upload", valueName: "BYTES",
                help: "Refuse a file larger than this before reading it, e.g. 64MiB (default: the daemon's limit, "
                    + "which a smaller value lowers)."),
        ] + RenamesOption.arguments
    )

    /// What `--format` prints.
    enum OutputFormat: String, CaseIterable {
        /// For people.
        case text
        /// For scripts: the reply's JSON form.
        case json
        /// A pull-request comment.
        case markdown
        /// A SARIF 2.1.0 log of the new and reopened findings.
        case sarif
    }

    let project: String
    let file: String
    let output: OutputFormat
    let scanFormat: ScanFormat?
    let commit: String?
    let branch: String?
    let base: CheckBase?
    let failOn: Severity?
    let scope: String?
    let isRecorded: Bool
    /// `--max-upload`: the limit to check the file against instead of the daemon's.
    let maximumUpload: Int?
    /// Where the renames come from (`--renames`, `--no-renames`, git).
    let renames: RenamesOption
    /// Whether the answer has a row per tracked finding: only the JSON form shows them.
    let includesTracked: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(message, commandPath: parsed.commandPath) }
        project = parsed.value("project") ?? ""
        file = parsed.value("file") ?? "-"
        if let text = parsed.value("format") {
            guard let output = OutputFormat(rawValue: text) else {
                throw fail(
                    "--format must be " + OutputFormat.allCases.map(\.rawValue).joined(separator: ", ") + ", not "
                        + ValueExcerpt.quoted(text))
            }
            self.output = output
        } else {
            output = parsed.flag("json") ? .json : .text
        }
        if let text = parsed.value("scan-format") {
            guard let format = ScanFormat(rawValue: text), format != .sdkCheck else {
                throw fail("--scan-format must be duo-scan or sarif, not \(ValueExcerpt.quoted(text))")
            }
            scanFormat = format
        } else {
            scanFormat = nil
        }
        if let text = parsed.value("base") {
            guard let base = CheckBase(text: text) else {
                throw fail("--base must be latest or a run's number, not \(ValueExcerpt.quoted(text))")
            }
            self.base = base
        } else {
            base = nil
        }
        if let text = parsed.value("fail-on") {
            guard let severity = Severity(rawValue: text) else {
                throw fail(
                    "--fail-on must be " + Severity.allCases.map(\.rawValue).joined(separator: ", ") + ", not "
                        + ValueExcerpt.quoted(text))
            }
            failOn = severity
        } else {
            failOn = nil
        }
        commit = parsed.value("commit")
        branch = parsed.value("branch")
        scope = parsed.value("scope")
        isRecorded = !parsed.flag("no-record")
        maximumUpload = try ScanFile.maximumUpload(parsed)
        renames = try RenamesOption(parsed, format: scanFormat)
        includesTracked = output == .json
    }

    /// A check made without a command line (MCP's check_scan): the scan's bytes are given.
    init(
        project: String, scanFormat: ScanFormat?, commit: String?, branch: String?, base: CheckBase?,
        failOn: Severity?, scope: String?, isRecorded: Bool, includesTracked: Bool, renames: RenamesOption
    ) {
        self.project = project
        self.file = "-"
        self.output = .json
        self.scanFormat = scanFormat
        self.commit = commit
        self.branch = branch
        self.base = base
        self.failOn = failOn
        self.scope = scope
        self.isRecorded = isRecorded
        self.maximumUpload = nil
        self.includesTracked = includesTracked
        self.renames = renames
    }

    /// The request for a scan of `bytes`.
    func request(for bytes: [UInt8]) throws(CLIError) -> CheckUploadRequest {
        var request = CheckUploadRequest(
            project: project, format: scanFormat ?? ScanFormat.guessed(from: bytes), branch: branch, base: base,
            scope: scope, failOn: failOn, isRecorded: isRecorded, includesTracked: includesTracked)
        if let commit { request.commit = try wireValue(commit, key: "commit") }
        return request
    }

    /// Uploads `bytes`, with the renames `renames` gives, and returns the daemon's typed reply.
    func check(_ bytes: [UInt8], given: FileRenames?, client: Client, context: CLIContext) throws
        -> CheckUploadRequest.Reply
    {
        var request = try request(for: bytes)
        // From the latest run's commit whatever the base: the tracked findings carry the paths the latest run gave
        // them (pass 3 renamed them), so that is what the scanned paths must be mapped from.
        let renames = renames.resolved(
            given: given, project: project, scope: scope ?? "", format: request.format ?? .duoScan, scan: bytes,
            commit: commit, client: client, environment: ProcessInfo.processInfo.environment)
        let payload: [UInt8]
        (payload, request.renames) = try RenamesOption.payload(
            renames, scan: bytes, limit: ScanFile.limit(override: maximumUpload, greeting: client.greeting))
        // A large scan takes a while to plan after the upload: wait for it.
        client.setReplyTimeout(.seconds(600))
        do {
            return try client.upload(request, payload: payload)
        } catch {
            throw context.explained(error)
        }
    }

    func run(_ context: CLIContext) throws {
        let reply: CheckUploadRequest.Reply
        let summary: CheckSummary
        // Anything that keeps the answer from being printed whole exits 2: 1 is the answer "the gate failed".
        do {
            let input = try file == "-" ? ScanFile.standardInput() : ScanFile.open(file)
            // Renames given are read and checked before anything is sent.
            let given = try renames.given()
            let client = try context.connect()
            let limit = ScanFile.limit(override: maximumUpload, greeting: client.greeting)
            try input.checkSize(limit: limit)
            reply = try check(try input.read(limit: limit), given: given, client: client, context: context)
            // Without its summary there is no result: never a pass by default.
            guard let given = reply.summary else { throw CLIError.badReply("CHECK's reply has no summary") }
            summary = given
            switch output {
            case .json: try Output.json(reply.jsonBody)
            case .text: print(CheckReport.text(reply, summary: summary, project: project), terminator: "")
            case .markdown: print(CheckReport.markdown(reply, summary: summary, project: project), terminator: "")
            case .sarif: print(try CheckReport.sarif(reply), terminator: "")
            }
        } catch let error as CLIError {
            throw CLIError.undecided(error)
        } catch {
            throw CLIError.undecided(.badReply("the answer could not be printed: \(error)"))
        }
        if summary.result == .fail {
            let failing = reply.rows.filter {
                $0.kind.isAdded && CheckGate.fails($0.severity, failOn: summary.failOn)
            }.count
            throw CLIError.gateFailed(
                "the check failed: \(Output.count(failing, "new or reopened finding")) at or above "
                    + summary.failOn.rawValue)
        }
    }
}
