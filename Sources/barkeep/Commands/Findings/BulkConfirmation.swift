import BarkeepCommandLine
import BarkeepProtocol
import Foundation

/// How a command that changes or removes many rows at once is confirmed (`screen remove`, `screen set --screens`,
/// `step set` over a selection, `pose record --screens`), as `finding set --where` is: `--dry-run` lists exactly
/// what would change and changes nothing, `--yes` changes it, and neither lists it too, then fails with a hint
/// (exit 1), so what a glob matched is seen before anything is lost.
enum BulkConfirmation: Equatable {
    /// `--dry-run`: list, change nothing, succeed.
    case dryRun
    /// `--yes`: change.
    case confirmed
    /// Neither: list, change nothing, fail with a hint.
    case preview

    /// The two flags.
    static func arguments(_ what: String) -> [ArgumentDefinition] {
        [
            .flag("dry-run", help: "List what would change (\(what)); change nothing."),
            .flag("yes", help: "Make the change (without it or --dry-run: the list, then exit 1)."),
        ]
    }

    /// Reads the flags; `isBulk` false (one screen named by its key) changes directly, and then takes neither.
    init(_ parsed: ParsedCommand, isBulk: Bool) throws(UsageError) {
        let (isDryRun, isYes) = (parsed.flag("dry-run"), parsed.flag("yes"))
        if isDryRun && isYes {
            throw UsageError("--dry-run and --yes exclude each other", commandPath: parsed.commandPath)
        }
        guard isBulk else {
            if isDryRun || isYes {
                throw UsageError(
                    "--dry-run and --yes go with a selection of many; one screen changes directly",
                    commandPath: parsed.commandPath)
            }
            self = .confirmed
            return
        }
        self = isDryRun ? .dryRun : isYes ? .confirmed : .preview
    }

    /// Whether the request only asks what would change.
    var isDryRun: Bool { self != .confirmed }

    /// The request keywords: `dry-run=yes` unless confirmed.
    var keywords: [(key: String, value: String)] { isDryRun ? [("dry-run", "yes")] : [] }

    /// After the list is printed: fails with `hint` when neither flag was given, else returns.
    func finish(_ hint: String) throws {
        guard self == .preview else { return }
        // The list first, then the error after it, even when both go to one pipe.
        fflush(nil)
        throw CLIError.unconfirmed("nothing changed: \(hint); run it again with --yes to do it (or --dry-run)")
    }
}
