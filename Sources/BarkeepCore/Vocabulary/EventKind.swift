/// What an event says happened: the one list of the kinds Barkeep appends to its event log. The raw values are
/// those stored in the events table and sent on the wire (docs/protocol.md, section 9).
public enum EventKind: String, Sendable, CaseIterable, Codable {
    /// A project was created; subject its name.
    case projectCreated = "project.created"
    /// A project's SDK, deployment target or required poses changed.
    case projectUpdated = "project.updated"
    /// A project was deleted; the event belongs to no project any more.
    case projectDeleted = "project.deleted"
    /// A scan run was ingested; subject `run N`, `to` its counts.
    case scanIngested = "scan.ingested"
    /// An SDK check was ingested.
    case sdkChecked = "sdk.checked"
    /// A scan was checked against the project's findings without being ingested (CHECK); subject the project, `to`
    /// its counts and result, `reason` its base, commit and branch.
    case scanChecked = "scan.checked"
    /// A finding or an item appeared.
    case findingNew = "finding.new"
    /// A finding's or an item's status changed.
    case findingStatus = "finding.status"
    /// A scan saw a finding's flagged line edited in place.
    case findingChanged = "finding.changed"
    /// A scan saw a finding's file renamed (pass 3 of the sync): `from` and `to` the old and new `FILE:LINE`.
    case findingRenamed = "finding.renamed"
    /// A finding someone marked verified persisted: a scan after the verification still reports it (once, by the
    /// first such run; the finding stays verified).
    case findingPersisted = "finding.persisted"
    /// A finding was assigned to someone, or unassigned.
    case findingAssigned = "finding.assigned"
    /// Someone commented on a finding.
    case findingComment = "finding.comment"
    /// An item's title, step, severity or needed symbols changed.
    case itemUpdated = "item.updated"
    /// An item was removed.
    case itemRemoved = "item.removed"
    /// A screen, component or area was added.
    case screenAdded = "screen.added"
    /// A screen's title, owner, globs or poses changed.
    case screenUpdated = "screen.updated"
    /// A screen was removed.
    case screenRemoved = "screen.removed"
    /// A screen started or stopped using a component.
    case screenUses = "screen.uses"
    /// Discovery no longer proposes a key.
    case screenDismissed = "screen.dismissed"
    /// Discovery proposes a dismissed key again.
    case screenUndismissed = "screen.undismissed"
    /// A path was excluded from the audit (`to` why), or is no longer (`from` why); subject the path.
    case screenExcluded = "screen.excluded"
    /// A checklist step of a screen changed state.
    case stepState = "step.state"
    /// A pose result was recorded for a screen.
    case poseRecorded = "pose.recorded"
    /// A sync source was added.
    case sourceAdded = "source.added"
    /// A sync source was paused.
    case sourcePaused = "source.paused"
    /// A paused sync source was resumed.
    case sourceResumed = "source.resumed"
    /// Someone asked a sync source to run now.
    case sourceRequested = "source.requested"
    /// A sync source was removed.
    case sourceRemoved = "source.removed"
    /// A sync source ran.
    case sourceRun = "source.run"
    /// A webhook was added.
    case hookAdded = "hook.added"
    /// A webhook was paused after failing again and again; `reason` says why.
    case hookPaused = "hook.paused"
    /// A paused webhook was resumed.
    case hookResumed = "hook.resumed"
    /// A webhook was removed.
    case hookRemoved = "hook.removed"
    /// An API token was created; it belongs to no project.
    case tokenCreated = "token.created"
    /// An API token was revoked; it belongs to no project.
    case tokenRevoked = "token.revoked"

    /// Whether an event of this kind is about one of the project's screens itself (its subject starts with the
    /// screen's key), rather than about a finding that a screen owns.
    public var isAboutScreen: Bool {
        switch self {
        case .screenAdded, .screenUpdated, .screenRemoved, .screenUses, .stepState, .poseRecorded: true
        default: false
        }
    }

    /// The kinds about a screen itself, in declaration order.
    public static let screenKinds = allCases.filter(\.isAboutScreen)

    /// The kinds a comma-separated list names, in order and without repeats, and the words that name no kind (an
    /// empty word among them).
    public static func list(parsing text: String) -> (kinds: [EventKind], unknown: [String]) {
        var kinds: [EventKind] = []
        var unknown: [String] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = String(word)
            guard let kind = EventKind(rawValue: word) else {
                unknown.append(word)
                continue
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return (kinds, unknown)
    }

    /// The kinds a comma-separated list names, in order and without repeats; a word that names no kind (an empty one
    /// among them) is `invalidArgument` for `kinds`, saying which kinds there are.
    public static func kinds(parsing text: String) throws(CoreError) -> [EventKind] {
        let parsed = list(parsing: text)
        if let unknown = parsed.unknown.first {
            throw .invalidArgument(
                key: "kinds",
                problem: "unknown event kind \(ValueExcerpt.quoted(unknown)); the kinds are \(allNames)")
        }
        return parsed.kinds
    }

    /// Every kind, comma-separated, for messages that say which kinds there are.
    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")
}
