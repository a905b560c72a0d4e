/// What a row of a project's screens is. The raw values are those stored and shown.
public enum ScreenKind: String, Sendable, CaseIterable, Codable {
    /// A screen of the app: it owns bars or is navigated to. It has checklist steps and required poses, and is done
    /// or not.
    case screen
    /// A view used inside screens (a row, a section, a design-system button). Its findings count for every screen
    /// that uses it; it has no steps or poses of its own.
    case component
    /// The built-in `app` area: the app-wide files (app and scene delegates, Info.plist, project and build
    /// settings). It is done when none of its findings needs work.
    case area
}

/// The names of the places a finding can belong to besides the team's screens.
public enum AuditArea {
    /// The bucket of findings that no screen owns and no screen uses; no screen may take the name.
    public static let unmapped = "unmapped"
    /// The key of the built-in area of app-wide files; only that area has it.
    public static let app = "app"
    /// The app area's title.
    public static let appTitle = "App-wide files"
    /// The globs every project's app area owns from its creation. Discovery adds the app and scene delegates it
    /// finds.
    public static let defaultGlobs = [
        "**/Info.plist", "**/*.entitlements", "**/*.xcconfig", "**/*.xcodeproj/project.pbxproj",
    ]

    /// Whether `key` names a built-in place (`unmapped`, `app`), in any case: no screen the team adds may take it.
    public static func isReserved(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return lowered == unmapped || lowered == app
    }
}
