/// Why a finding is unmapped: no screen counts it. The raw values are those the protocol sends (`unmapped=` on a
/// `finding` record) and `findings --json` prints; the one home of the set, in the order a listing explains them.
public enum UnmappedReason: String, Sendable, CaseIterable {
    /// No glob of a screen, component or the app area matches its file.
    case noGlob = "no-glob"
    /// A component owns its file, but no screen uses that component (directly or through other components).
    case unusedComponent = "unused-component"
    /// No glob matches its file, and the file is in a directory (or is a file) the team excluded from the audit:
    /// one that `screen discover --apply` left out as not the iPhone app's (tests, other targets, previews,
    /// `--exclude`), or one `screen exclude` names.
    case excluded
    /// It names no file (an item added without a screen, a project-level finding), so no glob can take it.
    case noFile = "no-file"

    /// Why a finding is unmapped, or nil when a screen counts it: `hasOwner` whether a screen, component or the
    /// app area owns its file, `isUnusedComponent` whether that owner is a component no screen uses, `file` its
    /// file (nil: none), `excludedBy` the excluded path holding that file (nil: none).
    public static func of(
        hasOwner: Bool, isUnusedComponent: Bool, file: String?, excludedBy: String?
    ) -> UnmappedReason? {
        if hasOwner { return isUnusedComponent ? .unusedComponent : nil }
        if file == nil { return .noFile }
        return excludedBy == nil ? .noGlob : .excluded
    }

    /// What the reason says, for people: `no screen's glob matches its file`.
    public var explanation: String {
        switch self {
        case .noGlob: "no screen's, component's or app area's glob matches its file"
        case .unusedComponent: "its component is used by no screen"
        case .excluded: "its file is in a path excluded from the audit"
        case .noFile: "it names no file"
        }
    }

    /// What the team can do about it, for people.
    public var remedy: String {
        switch self {
        case .noGlob: "add a screen or component owning the file (screen add, screen set --add-path)"
        case .unusedComponent: "say which screens use the component (screen uses SCREEN COMPONENT)"
        case .excluded: "map the file by hand if the team audits it after all"
        case .noFile: "keep it in mind as a project-wide item"
        }
    }
}
