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
    /// The screens declared in a file another type owns (see ``ScreenDiscovery``, groups and globs): not proposed,
    /// since a glob of theirs would take that type's findings, sorted by name.
    public var embeddedScreens: [EmbeddedScreen]
    /// The directories left out as not the iPhone app's (tests, watchOS apps, widget extensions) and the paths
    /// `--exclude` matched, by path.
    public var leftOut: [LeftOutDirectory]

    /// Creates a result.
    public init(
        screens: [ProposedScreen] = [],
        components: [ProposedComponent] = [],
        appFiles: [String] = [],
        embeddedScreens: [EmbeddedScreen] = [],
        leftOut: [LeftOutDirectory] = []
    ) {
        self.screens = screens
        self.components = components
        self.appFiles = appFiles
        self.embeddedScreens = embeddedScreens
        self.leftOut = leftOut
    }
}

/// A directory whose files discovery leaves out: they are not the iPhone app's.
public struct LeftOutDirectory: Sendable, Equatable {
    /// Why a directory is left out.
    public enum Reason: String, Sendable, Equatable {
        /// A test directory: named `Tests` or `…Tests` (`AppTests`, `UITests`).
        case tests
        /// A watchOS app or a widget extension: the directory holds an `@main` file and watchOS or widget code
        /// (an `import WatchKit` or `ClockKit`, a `Widget`, `WidgetBundle`, `WKApplicationDelegate` or
        /// `WKExtensionDelegate` type, a `WKApplicationDelegateAdaptor`).
        case otherTarget = "other-target"
        /// Previews and galleries of views: a directory named `Preview Content`, `Previews`, `Gallery`, `Demo` or
        /// `Demos` (any case), whose views are shown only by previews or a design-system catalog.
        case previews
        /// A directory or file an `--exclude` glob matches.
        case excluded = "exclude"
    }

    /// The directory (or, for `--exclude`, the file), relative to the root.
    public var directory: String
    /// Why.
    public var reason: Reason
    /// How many files under it were left out.
    public var files: Int

    /// Creates an entry.
    public init(directory: String, reason: Reason, files: Int) {
        self.directory = directory
        self.reason = reason
        self.files = files
    }
}

/// A screen declared in a file whose main type is another, not a screen: `struct DetailView: View` at the end of
/// `SettingsItem.swift`, which `enum SettingsItem` owns.
public struct EmbeddedScreen: Sendable, Equatable {
    /// The screen type's name.
    public var name: String
    /// The declaring file.
    public var file: String
    /// The type owning the file.
    public var mainType: String
    /// Why it is a screen, as a proposal's reasons.
    public var reasons: [String]

    /// Creates an entry.
    public init(name: String, file: String, mainType: String, reasons: [String]) {
        self.name = name
        self.file = file
        self.mainType = mainType
        self.reasons = reasons
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

/// A component a screen uses: its type name, the key of the component its files make, and their globs.
public struct ComponentUse: Sendable, Equatable {
    /// The component's type name, qualified by the types it is nested in (`InboxView.Row`).
    public var name: String
    /// The key the component is added under: one per group of files (``ProposedComponent/key``).
    public var key: String
    /// The globs of the component's files, made as a screen's are.
    public var globs: [String]

    /// Creates a use; the key defaults to the name.
    public init(name: String, key: String? = nil, globs: [String]) {
        self.name = name
        self.key = key ?? name
        self.globs = globs
    }
}

/// A view type that is not a screen: drawn inside screens (a row, a section, a design-system button), used by none,
/// or a base class other view controllers derive from.
public struct ProposedComponent: Sendable, Equatable {
    /// The type's name, qualified by the types it is nested in.
    public var name: String
    /// The key it is added under: the components of one group of files share one, their group's main type when
    /// that is one of them (a secondary type of a file does not name it), else as a screen's proposal is keyed;
    /// a component in a proposed screen's files has that screen's key.
    public var key: String
    /// SwiftUI view or view controller.
    public var kind: ViewType.Kind
    /// The file declaring it (an Objective-C class's header when it has one).
    public var file: String
    /// The globs of its files, made as a screen's are.
    public var globs: [String]
    /// The keys of the proposed screens that use it, directly or through other components, or whose files declare
    /// it, sorted; empty when no screen does.
    public var usedBy: [String]
    /// Whether it is a view controller or UIKit view that other discovered classes derive from.
    public var isBaseClass: Bool

    /// Creates a component; the key defaults to the name.
    public init(
        name: String,
        key: String? = nil,
        kind: ViewType.Kind,
        file: String,
        globs: [String],
        usedBy: [String] = [],
        isBaseClass: Bool = false
    ) {
        self.name = name
        self.key = key ?? name
        self.kind = kind
        self.file = file
        self.globs = globs
        self.usedBy = usedBy
        self.isBaseClass = isBaseClass
    }
}
