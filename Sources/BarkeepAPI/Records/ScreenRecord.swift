import BarkeepCore
import BarkeepProtocol

/// A `screen` record: a screen, component or the app area, with where it stands (SCREEN LIST, SCREEN SHOW) or what
/// a change did (SCREEN ADD, SET, USES). Fields absent from a reply are nil.
public struct ScreenRecord: WireFields, Equatable {
    /// Its key.
    public var key = ""
    /// Screen, component or the app area.
    public var kind = ScreenKind.screen
    /// Its title, when set.
    public var title: String?
    /// Who owns it.
    public var owner: String?
    /// The source path globs it owns.
    public var paths: [String] = []
    /// The poses it must pass when not the project's: comma-separated, or `none`; nil: the project's.
    public var poses: String?
    /// For a screen, the components it uses; for a component, the screens using it; nil when none.
    public var uses: [String]?
    /// A component's: the components it uses itself; nil when none.
    public var components: [String]?
    /// When it was added (the database's text).
    public var created = ""
    /// Its findings needing work (with those of the components it uses).
    public var findings: Int?
    /// Checklist steps done.
    public var stepsDone: Int?
    /// Checklist steps that apply.
    public var stepsApplicable: Int?
    /// Required poses settled.
    public var posesPassed: Int?
    /// Required poses.
    public var posesRequired: Int?
    /// Whether it is done.
    public var isDone: Bool?
    /// Findings re-attributed by the change.
    public var reattributed: Int?
    /// Whether a change of many changed it (or would).
    public var isChanged: Bool?
    /// Its owner before a change of many.
    public var fromOwner: String?
    /// Its poses before a change of many, as `poses`.
    public var fromPoses: String?
    /// What a change of many left alone for its kind, comma-separated.
    public var skipped: String?
    /// Why those were left alone.
    public var why: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "screen"

    /// The fields, in wire order.
    public static let fields: [Field<ScreenRecord>] = [
        Field("key", \.key, "Its key."),
        Field("kind", \.kind, "screen, component or area."),
        Field("title", \.title, "Its title, when set."),
        Field("owner", \.owner, "Who owns it."),
        Field("paths", \.paths, "The source path globs it owns."),
        Field("poses", \.poses, "The poses it must pass, or none; absent: the project's."),
        Field("uses", \.uses, "A screen's components, or the screens using a component; absent: none."),
        Field("components", \.components, "A component's: the components it uses itself."),
        Field("created", \.created, "When it was added."),
        Field("findings", \.findings, "Findings needing work, its own and those of the components it uses."),
        Field("steps-done", \.stepsDone, "Checklist steps done."),
        Field("steps-applicable", \.stepsApplicable, "Checklist steps that apply."),
        Field("poses-passed", \.posesPassed, "Required poses settled."),
        Field("poses-required", \.posesRequired, "Required poses."),
        Field("done", \.isDone, "Whether it is done."),
        Field("reattributed", \.reattributed, "Findings re-attributed by the change."),
        Field("changed", \.isChanged, "Whether a change of many changed it."),
        Field("from-owner", \.fromOwner, "Its owner before a change of many."),
        Field("from-poses", \.fromPoses, "Its poses before a change of many."),
        Field("skipped", \.skipped, "What a change of many left alone for its kind."),
        Field("why", \.why, "Why that was left alone."),
    ]

    /// The CLI's `--json` object (`barkeep screen list`, `screen show`, `add`, `set`, `uses`; MCP's screens): `uses`
    /// always a list, a component's `components` too, `poses` and `from_poses` lists (empty for none).
    public var listJSON: [String: Any] {
        var object = json
        if uses == nil { object["uses"] = [String]() }
        if kind == .component && components == nil { object["components"] = [String]() }
        for (name, poses) in [("poses", poses), ("from_poses", fromPoses)] {
            guard let poses else { continue }
            object[name] = poses == "none" ? [] : poses.split(separator: ",").map(String.init)
        }
        return object
    }

    /// The JSON Schema of `listJSON`: the fields' (absent when absent), `uses` always a list, `components`,
    /// `poses` and `from_poses` lists.
    public static var listJSONSchema: [String: Any] {
        let poses = JSONBodySchema.array(["type": "string", "description": "A pose (P1…P16)."])
        let always = JSONBodySchema.amended(jsonSchema, ["uses": memberSchema("uses")])
        return JSONBodySchema.amended(
            always, ["components": memberSchema("components"), "poses": poses, "from_poses": poses], required: false)
    }
}
