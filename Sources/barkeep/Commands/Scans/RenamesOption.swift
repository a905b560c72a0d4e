import BarkeepCommandLine
import BarkeepCore
import Foundation

/// Where the renames that go with a scan come from (`--renames FILE`, `--no-renames`, or git by default), and how
/// they go: before the scan in the upload, their size in the request's `renames`. Any command that uploads a scan
/// takes these options.
enum RenamesOption: Sendable, Equatable {
    /// From git, when barkeep runs in a checkout (`RenameLookup`).
    case git
    /// None.
    case none
    /// A file of `git diff --name-status` output.
    case file(String)
    /// That output itself (the MCP tool's `renames`).
    case text(String)

    /// `--renames FILE` and `--no-renames`.
    static let arguments: [ArgumentDefinition] = [
        .option(
            "renames", valueName: "FILE",
            help: "The files renamed since the latest run, as git diff --name-status --find-renames prints them "
                + "(default: from git, in a checkout)."),
        .flag("no-renames", help: "Send no renames, not even git's."),
    ]

    /// The option the command line gives; both, or renames with an SDK check, are usage errors.
    init(_ parsed: ParsedCommand, format: ScanFormat?) throws(UsageError) {
        switch (parsed.value("renames"), parsed.flag("no-renames")) {
        case (.some, true):
            throw UsageError("--renames and --no-renames do not go together", commandPath: parsed.commandPath)
        case (.some, false) where format == .sdkCheck:
            throw UsageError("an SDK check takes no renames", commandPath: parsed.commandPath)
        case (.some(let path), false): self = .file(path)
        case (.none, true): self = .none
        case (.none, false): self = .git
        }
    }

    /// The renames a file or a text gives, read and checked before anything is sent: a file that cannot be read, is
    /// larger than `FileRenames.maximumBytes`, is not UTF-8 or that `FileRenames.parse` refuses is `badInput`. Nil for
    /// none and for git's, which are looked up once connected (`resolved`).
    func given() throws(CLIError) -> FileRenames? {
        let text: String
        let origin: String
        switch self {
        case .git, .none: return nil
        case .text(let given):
            (text, origin) = (given, "the renames")
        case .file(let path):
            origin = "--renames \(path)"
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw .badInput("\(origin): cannot be read")
            }
            defer { try? handle.close() }
            let data: Data
            do {
                data = try handle.read(upToCount: FileRenames.maximumBytes + 1) ?? Data()
            } catch {
                throw .badInput("\(origin): cannot be read: \(error.localizedDescription)")
            }
            guard data.count <= FileRenames.maximumBytes else {
                throw .badInput("\(origin): larger than the \(FileRenames.maximumBytes) bytes a list of renames may be")
            }
            guard let decoded = String(validating: [UInt8](data), as: UTF8.self) else {
                throw .badInput("\(origin): not UTF-8 text")
            }
            text = decoded
        }
        do {
            return try FileRenames.parse(nameStatus: text)
        } catch {
            throw .badInput("\(origin): not git diff --name-status output: \(error)")
        }
    }

    /// The renames to send: `given` (what `given()` read), or git's for `.git` (`RenameLookup`, asking the daemon on
    /// `client` for the latest run's commit).
    func resolved(
        given: FileRenames?, project: String, scope: String, format: ScanFormat, scan bytes: [UInt8], commit: String?,
        client: Client, environment: [String: String]
    ) -> FileRenames? {
        guard self == .git else { return given }
        return RenameLookup.renames(
            project: project, scope: scope, format: format, scan: bytes, commit: commit, client: client,
            environment: environment)
    }

    /// The upload: the renames' text, then the scan; and the `renames` count of the request (nil without renames).
    /// The scan was checked against the upload `limit` alone; with the renames before it the upload may pass it, which
    /// is refused here (`TOOLONG`) before anything is sent, as the daemon would refuse it after.
    static func payload(_ renames: FileRenames?, scan bytes: [UInt8], limit: Int?) throws(CLIError) -> (
        payload: [UInt8], count: Int?
    ) {
        guard let renames, !renames.isEmpty else { return (bytes, nil) }
        let text = Array(renames.nameStatusText.utf8)
        if let limit, text.count + bytes.count > limit {
            throw .refused(
                .tooLong,
                "the scan and its \(renames.count) renames hold more than the upload limit of "
                    + "\(ScanFile.describe(limit)); send them with --no-renames")
        }
        return (text + bytes, text.count)
    }
}
