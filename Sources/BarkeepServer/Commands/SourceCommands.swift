import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepSources
import BarkeepStore
import Foundation

/// SOURCE ADD, LIST, SHOW, PAUSE, RESUME, RUN and REMOVE: the sources the daemons pull scans from (docs/sources.md),
/// declared by their specs (BarkeepAPI).
enum SourceCommands {
    static let all: [Command] = [add, list, show, pause, resume, run, remove]

    /// The keys only an inbox takes, and those only a repository takes.
    static let inboxKeys: [(key: String, value: @Sendable (SourceAddRequest) -> String?)] = [("settle", \.settle)]
    static let repoKeys: [(key: String, value: @Sendable (SourceAddRequest) -> String?)] = [
        ("branch", \.branch), ("every", \.every), ("max-output", \.maximumOutput), ("scanner", \.scanner),
        ("timeout", \.timeout),
    ]

    /// `SOURCE ADD PROJECT inbox=DIR|repo=PATH …`. The paths are checked on a database thread: looking at the file
    /// system (and asking git) may block, which the event loop must not.
    static let add = Command(SourceAddRequest.self) { request, input throws(CommandError) in
        let settings = try settings(request)
        let actor = input.session.actor
        let version = input.session.protocolVersion
        let protected = input.server.configuration.protectedDirectories
        return .database { connection in
            let checked = try checkPaths(settings, protected: protected)
            let source = try SourceStore.add(checked, to: request.project, actor: actor, on: connection)
            return CommandResult(SourceAddRequest.Reply([SourceRecord(source)]), version: version)
        }
    }

    static let list = LeasedCommands<Source>.list

    static let show = Command(SourceShowRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let source = try SourceStore.require(request.id.value, on: connection)
            let events = try SourceStore.events(of: source, on: connection)
            return CommandResult(
                SourceShowRequest.Reply(SourceRecord(source), rows: events.map(EventFields.init)), version: version)
        }
    }

    static let pause = LeasedCommands<Source>.pausing(Pausing.self)
    /// RESUME: an inbox is resumed only if InboxGuard accepts its directory as it is now (a daemon pauses an inbox
    /// whose directory became one it refuses; resuming it as it is would only pause it again).
    static let resume = LeasedCommands<Source>.pausing(
        Resuming.self,
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

    static let run = Command(SourceRunRequest.self) { request, input in
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let source = try SourceStore.requestRun(request.id.value, actor: actor, on: connection)
            return CommandResult(SourceRunRequest.Reply([SourceRecord(source)]), version: version)
        }
    }

    static let remove = LeasedCommands<Source>.remove

    // MARK: - Checking what SOURCE ADD was given

    /// The settings a `SOURCE ADD` line asks for, checked but for the file system.
    static func settings(_ request: SourceAddRequest) throws(CommandError) -> SourceSettings {
        let formatText = request.format ?? ScanFormat.duoScan.rawValue
        guard let format = ScanFormat(rawValue: formatText) else {
            throw CommandError(
                .badArgument, "format must be " + ScanFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        switch (request.inbox, request.repo) {
        case (let inbox?, nil):
            if let key = repoKeys.first(where: { $0.value(request) != nil })?.key {
                throw CommandError(.badArgument, "\(key) is for a repository source, not an inbox")
            }
            let settle = try duration(request.settle, key: "settle", default: 5, range: 0...3600)
            return .inbox(try absolutePath(inbox, key: "inbox"), format: format.rawValue, settleSeconds: settle)
        case (nil, let repo?):
            if let key = inboxKeys.first(where: { $0.value(request) != nil })?.key {
                throw CommandError(.badArgument, "\(key) is for an inbox source, not a repository")
            }
            guard let scanner = request.scanner, !scanner.allSatisfy(\.isWhitespace) else {
                throw CommandError(.badArgument, "a repository source needs scanner=COMMAND")
            }
            guard !scanner.contains(where: { $0.isNewline || $0 == "\0" }) else {
                throw CommandError(.badArgument, "scanner must be one line")
            }
            let branch = request.branch ?? "main"
            guard GitRepository.isValidBranchName(branch) else {
                throw CommandError(.badArgument, "\(ValueExcerpt.quoted(branch)) is not a valid branch name")
            }
            let maximumOutput = try byteCount(request.maximumOutput)
            return .repo(
                try absolutePath(repo, key: "repo"), format: format.rawValue, branch: branch, scanner: scanner,
                everySeconds: try duration(request.every, key: "every", default: 600, range: 10...604_800),
                timeoutSeconds: try duration(request.timeout, key: "timeout", default: 600, range: 1...86_400),
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

extension Source: LeasedWire {
    /// Sources.
    typealias Noun = SourceNoun
    /// The source as a `source` record.
    var wireRecord: SourceRecord { SourceRecord(self) }
}

extension SourceRecord {
    /// The record of `source`: its lease only while it lasts, its next run only while it is active.
    init(_ source: Source) {
        self.init()
        id = Int(source.id)
        project = source.project
        kind = source.settings.kind
        format = source.settings.format
        state = PauseState(isPaused: source.isPaused)
        inbox = source.settings.inbox
        settle = source.settings.settleSeconds
        repo = source.settings.repo
        branch = source.settings.branch
        scanner = source.settings.scanner
        every = source.settings.everySeconds
        timeout = source.settings.timeoutSeconds
        maximumOutput = source.settings.maximumOutput
        created = source.createdAt.postgresText
        createdBy = source.createdBy
        let leaseIsLive = source.leaseUntil.map { $0 > Date() } ?? false
        holder = leaseIsLive ? source.holder : nil
        leaseUntil = leaseIsLive ? source.leaseUntil?.postgresText : nil
        lastRun = source.lastRunAt?.postgresText
        lastOutcome = source.lastOutcome
        lastError = source.lastError
        lastScanRun = source.lastScanRun
        lastCommit = source.lastCommit
        failures = source.lastRunAt == nil ? nil : source.failures
        nextRun = source.isPaused ? nil : source.nextRunAt.postgresText
        isRunRequested = source.isRunRequested ? true : nil
    }
}
