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
            Before reading the file, barkeep refuses one that is not a regular file (a FIFO, a device, a
            directory), a connection whose role may not ingest (FORBIDDEN), and a file larger than the daemon's
            upload limit (TOOLONG; HELLO says the limit, a smaller --max-upload lowers it, and it stands in for a
            daemon that does not say); standard input is read up to the limit and refused past it.
            With --json prints exactly {"run":N,"new":N,"fixed":N,"reopened":N,"unchanged":N,"moved":N,"changed":N,
            "open":N,"repeat":B}: what this upload changed (all 0 for a repeat, "repeat":true).
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
        ]
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
    }

    /// An ingest made without a command line (the MCP server's ingest_scan): `file` is a path, checked against
    /// the daemon's upload limit.
    init(
        project: String, file: String, format: ScanFormat?, commit: String?, commitTime: String?, isForced: Bool,
        scope: String?
    ) {
        self.project = project
        self.file = file
        self.format = format
        self.commit = commit
        self.commitTime = commitTime
        self.isForced = isForced
        self.scope = scope
        self.maximumUpload = nil
    }

    /// The counts of a scan's reply, in the order `--json` prints them.
    static let countKeys = ["run", "new", "fixed", "reopened", "unchanged", "moved", "changed", "open"]

    /// The JSON object of an ingest's reply: {run, new, fixed, …, open, repeat} for a scan, the SDK check's
    /// object for one.
    static func json(_ response: Response, format: ScanFormat) -> [String: Any] {
        let fields = response.fields
        guard format != .sdkCheck else { return checkJSON(response) }
        var object: [String: Any] = ["repeat": fields["repeat"] == "yes"]
        for key in countKeys { object[key] = Int(fields[key] ?? "") ?? 0 }
        return object
    }

    /// Uploads the file and returns its format and the daemon's reply. What ScanFile refuses is refused before
    /// the file is read: what is not a regular file before the daemon is asked, then a role that may not ingest
    /// and a file over the upload limit (both from the daemon's HELLO).
    func upload(_ context: CLIContext) throws -> (ScanFormat, Response) {
        let input = try file == "-" ? ScanFile.standardInput() : ScanFile.open(file)
        let client = try context.connect()
        try ScanFile.checkRole(client.greeting, hasToken: context.token != nil)
        let limit = ScanFile.limit(override: maximumUpload, greeting: client.greeting)
        try input.checkSize(limit: limit)
        let bytes = try input.read(limit: limit)
        let format = self.format ?? Self.guessFormat(bytes)
        var request = Request(verb: "INGEST", arguments: [project], keywords: ["format": format.rawValue])
        if let commit {
            request.keywordList.append(("commit", commit))
            let environment = ProcessInfo.processInfo.environment
            // Given, it wins (the daemon checks its form); else git's, when git knows the commit.
            if let time = commitTime ?? CommitTimeLookup.committerTime(of: commit, environment: environment) {
                request.keywordList.append(("commit-time", time))
            }
        }
        if isForced { request.keywordList.append(("force", "yes")) }
        if let scope { request.keywordList.append(("scope", scope)) }

        // A large sync takes a while after the upload: wait for it.
        client.setReplyTimeout(.seconds(600))
        let showsProgress = bytes.count >= 4 << 20 && isatty(STDERR_FILENO) == 1
        let response: Response
        do {
            response = try client.upload(request, payload: bytes) { sent in
                guard showsProgress else { return }
                let percent = sent * 100 / max(bytes.count, 1)
                FileHandle.standardError.write(
                    Data("\rbarkeep: uploading \(sent >> 20) of \(bytes.count >> 20) MiB (\(percent)%)".utf8))
                if sent == bytes.count {
                    FileHandle.standardError.write(Data("\rbarkeep: uploaded; syncing…\u{1B}[K".utf8))
                }
            }
        } catch {
            if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            throw context.explained(error)
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return (format, response)
    }

    func run(_ context: CLIContext) throws {
        let (format, response) = try upload(context)
        let fields = response.fields
        func number(_ key: String) -> Int { Int(fields[key] ?? "") ?? 0 }
        if format == .sdkCheck {
            try printCheck(response, context: context)
            return
        }
        if context.isJSON {
            // Exactly these keys, in this order.
            let keys = Self.countKeys
            let repeated = fields["repeat"] == "yes" ? "true" : "false"
            print(
                "{" + keys.map { "\"\($0)\":\(number($0))" }.joined(separator: ",") + ",\"repeat\":\(repeated)}")
            return
        }
        print(Self.sentence(fields))
    }

    /// What a scan's upload did, in one sentence (`Run 2: 0 new, 2 fixed, …. 25 findings need work.`).
    static func sentence(_ fields: [String: String]) -> String {
        func number(_ key: String) -> Int { Int(fields[key] ?? "") ?? 0 }
        let open = "\(Output.count(number("open"), "finding")) \(number("open") == 1 ? "needs" : "need") work."
        if fields["repeat"] == "yes" {
            return "Run \(number("run")) already has this content: nothing changed. " + open
        }
        return "Run \(number("run")): \(number("new")) new, \(number("fixed")) fixed, \(number("reopened")) reopened, "
            + "\(number("unchanged")) unchanged (\(number("moved")) moved), \(number("changed")) changed. " + open
    }

    /// The JSON object of an SDK check's reply.
    private static func checkJSON(_ response: Response) -> [String: Any] {
        let fields = response.fields
        var object: [String: Any] = [
            "sdk": fields["sdk"] ?? "", "project_sdk": fields["project-sdk"] ?? "",
            "repeat": fields["repeat"] == "yes",
        ]
        for key in ["run", "symbols", "found", "unblocked", "blocked"] { object[key] = Int(fields[key] ?? "") ?? 0 }
        object["changes"] = response.records.map(ItemChanges.json)
        return object
    }

    /// What an SDK check changed.
    private func printCheck(_ response: Response, context: CLIContext) throws {
        let fields = response.fields
        if context.isJSON {
            try Output.json(Self.checkJSON(response))
            return
        }
        let again = fields["repeat"] == "yes" ? " (the same check as before: nothing changed)" : ""
        print(
            "SDK check, run \(fields["run"] ?? "?"): \(fields["found"] ?? "0") of \(fields["symbols"] ?? "0") symbols "
                + "found in the iOS \(fields["sdk"] ?? "?") SDK\(again).")
        if let projectSDK = fields["project-sdk"], let checked = fields["sdk"],
            SDKVersion(projectSDK) != SDKVersion(checked)
        {
            print(
                "The project builds with the iOS \(projectSDK) SDK: this check decides nothing until it moves to "
                    + "\(checked) (barkeep sdk set \(project) \(checked)).")
        }
        ItemChanges.print(response.records)
    }

    /// SARIF documents carry `"runs"` and their version; duo_scan's carry `"findings"`; SDK checks `"symbols"`.
    static func guessFormat(_ bytes: [UInt8]) -> ScanFormat {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if head.contains("\"symbols\"") && !head.contains("\"findings\"") && !head.contains("\"runs\"") {
            return .sdkCheck
        }
        return head.contains("\"runs\"") || head.contains("sarif") ? .sarif : .duoScan
    }
}
