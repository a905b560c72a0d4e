import BarkeepCore
import BarkeepProtocol
import BarkeepSources
import BarkeepStore
import Foundation

/// SOURCE ADD, LIST, SHOW, PAUSE, RESUME, RUN and REMOVE: the sources the daemons pull scans from (docs/sources.md).
enum SourceCommands {
    static let all: [Command] = [add, list, show, pause, resume, run, remove]

    /// The keys only an inbox takes, and those only a repository takes.
    static let inboxKeys: Set<String> = ["settle"]
    static let repoKeys: Set<String> = ["scanner", "branch", "every", "timeout", "max-output"]

    /// `SOURCE ADD PROJECT inbox=DIR|repo=PATH …`. The paths are checked on a database thread: looking at the file
    /// system (and asking git) may block, which the event loop must not.
    static let add = Command(
        "SOURCE ADD",
        positional: 1...1,
        keys: Set(["inbox", "repo", "format"]).union(inboxKeys).union(repoKeys),
        minimumRole: .admin
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let settings = try settings(input)
        let actor = input.session.actor
        let protected = input.server.configuration.protectedDirectories
        return .database { connection in
            let checked = try checkPaths(settings, protected: protected)
            let source = try SourceStore.add(checked, to: project, actor: actor, on: connection)
            return CommandResult(.records([source.record]))
        }
    }

    static let list = LeasedCommands<Source>.list(minimumRole: .reader)

    static let show = Command("SOURCE SHOW", positional: 1...1, arguments: [.other], minimumRole: .reader) {
        input throws(CommandError) in
        let id = try sourceID(input.argument(0))
        return .database { connection in
            let source = try SourceStore.require(id, on: connection)
            let events = try SourceStore.events(of: source, on: connection)
            return CommandResult(.records([source.record] + events.map(\.record)))
        }
    }

    static let pause = LeasedCommands<Source>.pausing(true, minimumRole: .writer)
    /// RESUME: an inbox is resumed only if InboxGuard accepts its directory as it is now (a daemon pauses an inbox
    /// whose directory became one it refuses; resuming it as it is would only pause it again).
    static let resume = LeasedCommands<Source>.pausing(
        false, minimumRole: .writer,
        check: { input in
            let protected = input.server.configuration.protectedDirectories
            return { id, connection in
                if let inbox = try SourceStore.require(id, on: connection).settings.inbox,
                    case .failure(let refusal) = InboxGuard(protectedDirectories: protected).check(inbox, depth: .tree)
                {
                    throw CommandError(.badArgument, "\(refusal.description); source \(id) stays paused")
                }
            }
        })

    static let run = Command("SOURCE RUN", positional: 1...1, arguments: [.other], minimumRole: .writer) {
        input throws(CommandError) in
        let id = try sourceID(input.argument(0))
        let actor = input.session.actor
        return .database { connection in
            CommandResult(.records([try SourceStore.requestRun(id, actor: actor, on: connection).record]))
        }
    }

    static let remove = LeasedCommands<Source>.remove(minimumRole: .admin)

    // MARK: - Checking what SOURCE ADD was given

    /// The settings a `SOURCE ADD` line asks for, checked but for the file system.
    static func settings(_ input: CommandInput) throws(CommandError) -> SourceSettings {
        let formatText = input.keyword("format") ?? ScanFormat.duoScan.rawValue
        guard let format = ScanFormat(rawValue: formatText) else {
            throw CommandError(
                .badArgument, "format must be " + ScanFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        switch (input.keyword("inbox"), input.keyword("repo")) {
        case (let inbox?, nil):
            if let key = repoKeys.sorted().first(where: { input.keyword($0) != nil }) {
                throw CommandError(.badArgument, "\(key) is for a repository source, not an inbox")
            }
            let settle = try duration(input.keyword("settle"), key: "settle", default: 5, range: 0...3600)
            return .inbox(try absolutePath(inbox, key: "inbox"), format: format.rawValue, settleSeconds: settle)
        case (nil, let repo?):
            if let key = inboxKeys.sorted().first(where: { input.keyword($0) != nil }) {
                throw CommandError(.badArgument, "\(key) is for an inbox source, not a repository")
            }
            guard let scanner = input.keyword("scanner"), !scanner.allSatisfy(\.isWhitespace) else {
                throw CommandError(.badArgument, "a repository source needs scanner=COMMAND")
            }
            guard !scanner.contains(where: { $0.isNewline || $0 == "\0" }) else {
                throw CommandError(.badArgument, "scanner must be one line")
            }
            let branch = input.keyword("branch") ?? "main"
            guard GitRepository.isValidBranchName(branch) else {
                throw CommandError(.badArgument, "\(ValueExcerpt.quoted(branch)) is not a valid branch name")
            }
            let maximumOutput = try byteCount(input.keyword("max-output"))
            return .repo(
                try absolutePath(repo, key: "repo"), format: format.rawValue, branch: branch, scanner: scanner,
                everySeconds: try duration(input.keyword("every"), key: "every", default: 600, range: 10...604_800),
                timeoutSeconds: try duration(
                    input.keyword("timeout"), key: "timeout", default: 600, range: 1...86_400),
                maximumOutput: maximumOutput
            )
        case (nil, nil), (_?, _?):
            throw CommandError(.badArgument, "a source reads exactly one of inbox=DIR or repo=PATH")
        }
    }

    /// Checks, on the daemon's host, that an inbox is a directory InboxGuard accepts and a repository one git can
    /// read; returns the settings with the inbox's canonical path (symbolic links, `.` and `..` resolved), so that
    /// one directory is one inbox however it is spelt.
    static func checkPaths(_ settings: SourceSettings, protected: [String]) throws(CommandError) -> SourceSettings {
        var settings = settings
        if let inbox = settings.inbox {
            switch InboxGuard(protectedDirectories: protected).check(inbox, depth: .tree) {
            case .success(let path): settings.inbox = path
            case .failure(let refusal): throw CommandError(.badArgument, refusal.description)
            }
        }
        if let repo = settings.repo {
            let environment = ScannerCommand.environment(from: ProcessInfo.processInfo.environment, adding: [:])
            guard GitRepository.isRepository(repo, environment: environment) else {
                throw CommandError(.badArgument, "\(repo) is not a git repository on the daemon's host")
            }
        }
        return settings
    }

    static func sourceID(_ text: String) throws(CommandError) -> Int64 { try LeasedCommands<Source>.id(text) }

    /// The longest path a source takes, in bytes: the system's own limit (PATH_MAX). A path within it is shown
    /// whole in messages; a longer one only by a short excerpt.
    static let maximumPathBytes = 4096

    /// `text` as an absolute path without a trailing slash (so one directory has one spelling).
    private static func absolutePath(_ text: String, key: String) throws(CommandError) -> String {
        guard text.utf8.count <= maximumPathBytes else {
            throw CommandError(
                .badArgument,
                "\(key) must be a path of at most \(maximumPathBytes) bytes, not \(ValueExcerpt.quoted(text))")
        }
        guard text.hasPrefix("/"), !text.contains("\0"), !text.contains(where: \.isNewline) else {
            throw CommandError(.badArgument, "\(key) must be an absolute path")
        }
        var path = text
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func duration(
        _ text: String?,
        key: String,
        default defaultValue: Int,
        range: ClosedRange<Int>
    ) throws(CommandError) -> Int {
        guard let text else { return defaultValue }
        guard let seconds = QuantityText.seconds(text), range.contains(seconds) else {
            throw CommandError(
                .badArgument,
                "\(key) must be a duration from \(QuantityText.describe(seconds: range.lowerBound)) to "
                    + "\(QuantityText.describe(seconds: range.upperBound)) (90, 10m, 1h)")
        }
        return seconds
    }

    private static func byteCount(_ text: String?) throws(CommandError) -> Int {
        guard let text else { return 64 << 20 }
        guard let bytes = QuantityText.bytes(text), (1 << 10...4 << 30).contains(bytes) else {
            throw CommandError(
                .badArgument, "max-output must be from 1 KiB to 4 GiB (a number of bytes, or 512KiB, 64MiB)")
        }
        return bytes
    }
}

extension Source: LeasedRecord {
    /// The source as a `source` record.
    var record: Record {
        var record = Record([
            "id": String(id), "project": project, "kind": settings.kind.rawValue, "format": settings.format,
            "state": PauseState(isPaused: isPaused).rawValue, "inbox": settings.inbox,
            "settle": settings.settleSeconds.map(String.init), "repo": settings.repo, "branch": settings.branch,
            "scanner": settings.scanner, "every": settings.everySeconds.map(String.init),
            "timeout": settings.timeoutSeconds.map(String.init), "max-output": settings.maximumOutput.map(String.init),
            "created": createdAt.postgresText, "created-by": createdBy,
        ])
        let leaseIsLive = leaseUntil.map { $0 > Date() } ?? false
        record.append("holder", leaseIsLive ? holder : nil)
        record.append("lease-until", leaseIsLive ? leaseUntil?.postgresText : nil)
        record.append("last-run", lastRunAt?.postgresText)
        record.append("last-outcome", lastOutcome?.rawValue)
        record.append("last-error", lastError)
        record.append("last-scan-run", lastScanRun.map(String.init))
        record.append("last-commit", lastCommit)
        record.append("failures", lastRunAt == nil ? nil : String(failures))
        record.append("next-run", isPaused ? nil : nextRunAt.postgresText)
        record.append("run-requested", isRunRequested ? "yes" : nil)
        return record
    }
}
