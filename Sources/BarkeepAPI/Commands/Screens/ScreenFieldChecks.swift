import BarkeepCore
import BarkeepProtocol

/// The value rules the SCREEN commands share, worded as the daemon has always refused them.
public enum ScreenFieldChecks {
    /// A key a new screen may take.
    @Sendable public static func screenKey(_ key: String) -> ValueProblem? {
        Names.isValidScreenKey(key)
            ? nil
            : ValueProblem(
                "a screen key is 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit, "
                    + "and not '\(AuditArea.unmapped)' or '\(AuditArea.app)'")
    }

    /// A path glob of the key `key` (`path`, `add-path`, `remove-path`).
    public static func glob(key: String) -> @Sendable (String) -> ValueProblem? {
        { glob in
            Names.isValidGlob(glob)
                ? nil
                : ValueProblem("\(key) must be a path glob of up to 1024 bytes without commas or control characters")
        }
    }

    /// An owner's name: not the word that means no owner.
    @Sendable public static func owner(_ name: String) -> ValueProblem? {
        ScreenOwner.refusal(ofOwner: name).map { ValueProblem($0) }
    }

    /// A listing's `owner=`: a name.
    @Sendable public static func listingOwner(_ name: String) -> ValueProblem? {
        name.isEmpty ? ValueProblem("owner= needs a name") : nil
    }
}
