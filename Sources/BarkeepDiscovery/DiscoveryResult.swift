/// What `screen discover` found in an app's sources: the screens to propose, the components they are made of, and
/// the files that belong to the whole app.
///
/// Every path and glob is relative to the directory the scanner runs in (the repository root), with `/`
/// separators, so that it matches the paths of the scanner's findings.
public struct DiscoveryResult: Sendable, Equatable {
    /// One proposal per group of files whose view types include a screen, sorted by key.
    public var screens: [ProposedScreen]
    /// Every view type that is not a screen, used by a screen or not, sorted by name then file.
    public var components: [ProposedComponent]
    /// The files of the whole app (delegates, `@main` App, `Info.plist`, project and build settings), sorted: their
    /// findings belong to the built-in `app` area rather than to a screen.
    public var appFiles: [String]

    /// Creates a result.
    public init(screens: [ProposedScreen] = [], components: [ProposedComponent] = [], appFiles: [String] = []) {
        self.screens = screens
        self.components = components
        self.appFiles = appFiles
    }
}

/// A screen proposed for the files of its view types: created with `SCREEN ADD PROJECT KEY path=GLOB path=GLOB2`.
public struct ProposedScreen: Sendable, Equatable {
    /// The screen's key: valid for the screens table and unique among the proposals.
    public var key: String
    /// The globs owning the screen's files: `Dir/Name.*` for the file that declares it (an Objective-C header and
    /// its implementation share it), `Dir/Name+*.swift` for its extension files (`Dir/Name+*` when Objective-C
    /// categories may be among them), then the paths of files elsewhere that extend its types.
    public var globs: [String]
    /// The screen types declared in those files, in source order.
    public var types: [String]
    /// Why the types are screens, in short words: `toolbar`, `navigationTitle`, `sheet from SettingsView`,
    /// `pushed from InboxViewController`. With several types, each reason starts with its type (`Inbox: toolbar`).
    public var reasons: [String]
    /// The components the screen's types draw, directly or through other components, sorted by name.
    public var uses: [ComponentUse]

    /// Creates a proposal.
    public init(key: String, globs: [String], types: [String], reasons: [String] = [], uses: [ComponentUse] = []) {
        self.key = key
        self.globs = globs
        self.types = types
        self.reasons = reasons
        self.uses = uses
    }
}

/// A component a screen uses: its type name and the globs of its files.
public struct ComponentUse: Sendable, Equatable {
    /// The component's type name, qualified by the types it is nested in (`InboxView.Row`).
    public var name: String
    /// The globs of the component's files, made as a screen's are.
    public var globs: [String]

    /// Creates a use.
    public init(name: String, globs: [String]) {
        self.name = name
        self.globs = globs
    }
}

/// A view type that is not a screen: drawn inside screens (a row, a section, a design-system button), used by none,
/// or a base class other view controllers derive from.
public struct ProposedComponent: Sendable, Equatable {
    /// The type's name, qualified by the types it is nested in.
    public var name: String
    /// SwiftUI view or view controller.
    public var kind: ViewType.Kind
    /// The file declaring it (an Objective-C class's header when it has one).
    public var file: String
    /// The globs of its files, made as a screen's are.
    public var globs: [String]
    /// The keys of the proposed screens that use it, directly or through other components, sorted; empty when
    /// no screen does.
    public var usedBy: [String]
    /// Whether it is a view controller that other discovered view controllers derive from.
    public var isBaseClass: Bool

    /// Creates a component.
    public init(
        name: String,
        kind: ViewType.Kind,
        file: String,
        globs: [String],
        usedBy: [String] = [],
        isBaseClass: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.file = file
        self.globs = globs
        self.usedBy = usedBy
        self.isBaseClass = isBaseClass
    }
}
