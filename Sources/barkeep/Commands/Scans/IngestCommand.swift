import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `barkeep ingest PROJECT FILE|-`: uploads a scanner run and prints what it changed.
struct IngestCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "ingest",
        abstract: "Upload a scanner run (duo_scan JSON or SARIF) and sync the project's findings with it, or an SDK "
            + "check (writer).",
        discussion: """
            FILE - reads standard input. The format is guessed from the file (SARIF has "version": "2.1.0" and
            "runs"; an SDK check has "symbols" and no "findings") unless --format says. The same file twice is the
            same run and changes nothing. With --scope, only findings under that path prefix can be marked fixed.
            With --commit, the commit's committer time goes with the scan: --commit-time, or else what git says
            when barkeep runs inside a repository that has the commit. A scan of a commit already ingested for the
            same tool and scope, or older than the latest run's commit, is refused (CONFLICT, exit 1) so it cannot
            undo triage; --force ingests it anyway.
            Renamed files keep their findings (pass 3 of the sync): run inside a git checkout, barkeep asks the
            daemon for the commit of the latest run of the scan's tool and scope and sends the files git says were
            renamed between it and --commit (else HEAD); when git cannot tell (a shallow clone without that commit)
            it says so on standard error and sends none. --renames FILE sends the output of git diff --name-status
            --find-renames BASE HEAD instead (lines R<score> TAB old TAB new; other lines are passed over), and
            --no-renames sends none.
            Before reading the file, barkeep refuses one that is not a regular file (a FIFO, a device, a
            directory), a connection whose role may not ingest (FORBIDDEN), and a file larger than the daemon's
            upload limit (TOOLONG; HELLO says the limit, a smaller --max-upload lowers it, and it stands in for a
            daemon that does not say); standard input is read up to the limit and refused past it.
            With --json prints exactly {"run":N,"new":N,"fixed":N,"reopened":N,"unchanged":N,"moved":N,"changed":N,
            "renamed":N,"open":N,"repeat":B}: what this upload changed (all 0 for a repeat, "repeat":true).
            --format sdk-check reads the SDK checker's JSON (symbols[] with symbol, found and
            declaration.availability), records which symbols the team's SDK declares and unblocks the items that
            were waiting for them; with --json it prints {"run","sdk","project_sdk","symbols","found","unblocked",
            "blocked","repeat","changes":[…]}. An SDK check covers the whole project: --scope is refused.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("file", help: "The scanner's output, or - for standard input."),
            .option("format", valueName: "FORMAT", help: "duo-scan, sarif or sdk-check (default: guessed)."),
            .option("commit", valueName: "SHA", help: "The commit that was scanned."),
            .option(
                "commit-time", valueName: "ISO8601",
                help: "The commit's committer time, e.g. 2026-11-30T10:00:00+01:00 (default: from git)."),
            .flag("force", help: "Ingest the scan even if its commit is old or was ingested before."),
            .option("scope", valueName: "PREFIX", help: "The path prefix the scan covered (default: everything)."),
            .option(
                "max-upload", valueName: "BYTES",
                help: "Refuse a file larger than this before reading it, e.g. 64MiB (default: the daemon's limit, "
                    + "which a smaller value lowers)."),
        ] + RenamesOption.arguments
    )

    let project: String
    let file: String
    let format: ScanFormat?
    let commit: String?
    let commitTime: String?
    let isForced: Bool
    let scope: String?
    /// `--max-upload`: the limit to check the file against instead of the daemon's.
    let maximumUpload: Int?
    /// Where the renames sent with the scan come from.
    let renames: RenamesOption

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        file = parsed.value("file") ?? "-"
        if let text = parsed.value("format") {
            guard let format = ScanFormat(rawValue: text) else {
                throw UsageError(
                    "--format must be duo-scan, sarif or sdk-check, not \(ValueExcerpt.quoted(text))",
                    commandPath: parsed.commandPath)
            }
            self.format = format
        } else {
            format = nil
        }
        commit = parsed.value("commit")
        commitTime = parsed.value("commit-time")
        isForced = parsed.flag("force")
        scope = parsed.value("scope")
        if let text = parsed.value("max-upload") {
            guard let bytes = QuantityText.bytes(text), bytes > 0 else {
                throw UsageError(
                    "--max-upload must be a size in bytes (or with KiB, MiB, GiB), not \(ValueExcerpt.quoted(text))",
                    commandPath: parsed.commandPath)
            }
            maximumUpload = bytes
        } else {
            maximumUpload = nil
        }
        if commitTime != nil && commit == nil {
            throw UsageError("--commit-time needs --commit", commandPath: parsed.commandPath)
        }
        if format == .sdkCheck && scope != nil {
            throw UsageError(
                "an SDK check covers the whole project: --scope does not apply", commandPath: parsed.commandPath)
        }
        renames = try RenamesOption(parsed, format: format)
    }

    /// An ingest made without a command line (the MCP server's ingest_scan): `file` is a path, checked against
    /// the daemon's upload limit.
    init(
        project: String, file: String, format: ScanFormat?, commit: String?, commitTime: String?, isForced: Bool,
        scope: String?, renames: RenamesOption
    ) {
        self.project = project
        self.file = file
        self.format = format
        self.commit = commit
        self.commitTime = commitTime
        self.isForced = isForced
        self.scope = scope
        self.maximumUpload = nil
        self.renames = renames
    }

    /// The counts of a scan's reply, in the order `--json` prints them: the JSON names of its summary's fields.
    static let countKeys = ScanIngestSummary.fields.map(\.jsonName).filter { $0 != "repeat" }

    /// The JSON object of an ingest's reply: {run, new, fixed, …, open, repeat} for a scan, the SDK check's
    /// object for one.
    static func json(_ reply: IngestUploadRequest.Reply) -> [String: Any] {
        switch reply {
        case .ok(let scan): scan.json
        case .records(let changes, let check): checkJSON(check, changes: changes)
        }
    }

    /// Uploads the file and returns the daemon's typed reply. What ScanFile refuses is refused
    /// before the file is read: what is not a regular file before the daemon is asked, then a role that may not
    /// ingest and a file over the upload limit (both from the daemon's HELLO). A commit or commit time the daemon
    /// would refuse is refused in its words before the upload.
    func upload(_ context: CLIContext) throws -> IngestUploadRequest.Reply {
        let input = try file == "-" ? ScanFile.standardInput() : ScanFile.open(file)
        // Renames given are read and checked before anything is sent.
        let givenRenames = try renames.given()
        let client = try context.connect()
        try ScanFile.checkRole(client.greeting, hasToken: context.token != nil)
        let limit = ScanFile.limit(override: maximumUpload, greeting: client.greeting)
        try input.checkSize(limit: limit)
        let bytes = try input.read(limit: limit)
        let format = self.format ?? ScanFormat.guessed(from: bytes)
        var request = IngestUploadRequest(project: project, format: format, scope: scope, isForced: isForced)
        let environment = ProcessInfo.processInfo.environment
        if let commit {
            request.commit = try wireValue(commit, key: "commit")
            // Given, it wins (checked as the daemon checks it); else git's, when git knows the commit.
            if let time = commitTime ?? CommitTimeLookup.committerTime(of: commit, environment: environment) {
                request.commitTime = try wireValue(time, key: "commit-time")
            }
        }
        let renames = renames.resolved(
            given: givenRenames, project: project, scope: scope ?? "", format: format, scan: bytes, commit: commit,
            client: client, environment: environment)
        let payload: [UInt8]
        (payload, request.renames) = try RenamesOption.payload(renames, scan: bytes, limit: limit)

        // A large sync takes a while after the upload: wait for it.
        client.setReplyTimeout(.seconds(600))
        let showsProgress = bytes.count >= 4 << 20 && isatty(STDERR_FILENO) == 1
        let reply: IngestUploadRequest.Reply
        do {
            reply = try client.upload(request, payload: payload) { sent in
                guard showsProgress else { return }
                let percent = sent * 100 / max(payload.count, 1)
                FileHandle.standardError.write(
                    Data("\rbarkeep: uploading \(sent >> 20) of \(payload.count >> 20) MiB (\(percent)%)".utf8))
                if sent == payload.count {
                    FileHandle.standardError.write(Data("\rbarkeep: uploaded; syncing…\u{1B}[K".utf8))
                }
            }
        } catch {
            if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            throw context.explained(error)
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return reply
    }

    func run(_ context: CLIContext) throws {
        let reply = try upload(context)
        switch reply {
        case .records(let changes, let check):
            try printCheck(check, changes: changes, context: context)
        case .ok(let scan) where context.isJSON:
            // Exactly these keys, in this order.
            let counts = scan.counts
            print(
                "{\"run\":\(scan.run),\"new\":\(counts.new),\"fixed\":\(counts.fixed),"
                    + "\"reopened\":\(counts.reopened),\"unchanged\":\(counts.unchanged),\"moved\":\(counts.moved),"
                    + "\"changed\":\(counts.changed),\"renamed\":\(counts.renamed),\"open\":\(scan.open),"
                    + "\"repeat\":\(scan.isRepeat)}")
        case .ok(let scan):
            print(Self.sentence(scan))
        }
    }

    /// What a scan's upload did, in one sentence (`Run 2: 0 new, 2 fixed, …. 25 findings need work.`).
    static func sentence(_ scan: ScanIngestSummary) -> String {
        let open = "\(Output.count(scan.open, "finding")) \(scan.open == 1 ? "needs" : "need") work."
        if scan.isRepeat {
            return "Run \(scan.run) already has this content: nothing changed. " + open
        }
        let counts = scan.counts
        let renamed = counts.renamed == 0 ? "" : ", \(counts.renamed) in renamed files"
        return "Run \(scan.run): \(counts.new) new, \(counts.fixed) fixed, \(counts.reopened) reopened, "
            + "\(counts.unchanged) unchanged (\(counts.moved) moved\(renamed)), \(counts.changed) changed. " + open
    }

    /// The JSON object of an SDK check's reply: its summary's fields and the items it moved.
    private static func checkJSON(_ check: SDKCheckSummary, changes: [ItemChangeRecord]) -> [String: Any] {
        var object = check.json
        object["changes"] = changes.map(\.listJSON)
        return object
    }

    /// What an SDK check changed.
    private func printCheck(_ check: SDKCheckSummary, changes: [ItemChangeRecord], context: CLIContext) throws {
        if context.isJSON {
            try Output.json(Self.checkJSON(check, changes: changes))
            return
        }
        let again = check.isRepeat ? " (the same check as before: nothing changed)" : ""
        print(
            "SDK check, run \(check.run): \(check.found) of \(check.symbols) symbols "
                + "found in the iOS \(check.sdk) SDK\(again).")
        if SDKVersion(check.projectSDK) != check.sdk {
            print(
                "The project builds with the iOS \(check.projectSDK) SDK: this check decides nothing until it moves "
                    + "to \(check.sdk) (barkeep sdk set \(project) \(check.sdk)).")
        }
        ItemChanges.print(changes)
    }

}
