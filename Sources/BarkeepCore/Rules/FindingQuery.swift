/// Which findings of a project a command selects: the one filter language of `FINDINGS`, bulk `FINDING SET` and
/// `FINDING ASSIGN` (and of every later command that selects findings). Each field narrows the selection; nil does
/// not filter. `parse(keywords:)` reads the wire keys and refuses garbage; the store turns a query into SQL.
///
/// Names that only the database knows (a screen key, a rule, an owner, a step's key) are checked there: an unknown
/// one is `NOTFOUND`, never an empty list.
public struct FindingQuery: Sendable, Equatable {
    /// A checklist step, by number (1 to 12) or by key (`order`).
    public enum Step: Sendable, Equatable {
        /// Step 1 to 12.
        case number(Int)
        /// A step's key, resolved by the store.
        case key(String)
    }

    /// Whose findings.
    public enum AssigneeFilter: Sendable, Equatable {
        /// Findings nobody is assigned to (`assignee=none`).
        case unassigned
        /// Findings assigned to this name.
        case name(String)
    }

    /// Only these statuses; nil: every status.
    public var statuses: [FindingStatus]?
    /// Only these severities.
    public var severities: [Severity]?
    /// Only these rules.
    public var rules: [String]?
    /// Only the findings that count for these screens (their own and those of the components they use), by key;
    /// `unmapped` (AuditArea) for the findings no screen owns or uses.
    public var screens: [String]?
    /// Only the findings that count for the screens this person owns; `nobody` (ScreenOwner) for the screens no one
    /// owns.
    public var owner: String?
    /// Only the findings assigned to a name, or to nobody.
    public var assignee: AssigneeFilter?
    /// Only scanner findings, or only manual ones (items).
    public var source: FindingSource?
    /// Only the findings of this checklist step (an item's, or the one its rule evidences).
    public var step: Step?
    /// Only this file and the files under it as a directory; only the files under it when it ends with `/`
    /// (`fileMatch(_:)`).
    public var file: String?
    /// Only the findings blocked on the SDK (true), or only the others (false).
    public var isBlocked: Bool?
    /// Only the scanner findings first seen in this run (its number in the project): those the run found new.
    public var newInRun: Int?

    /// A query; nil fields do not filter, so `FindingQuery()` selects every finding.
    public init(
        statuses: [FindingStatus]? = nil,
        severities: [Severity]? = nil,
        rules: [String]? = nil,
        screens: [String]? = nil,
        owner: String? = nil,
        assignee: AssigneeFilter? = nil,
        source: FindingSource? = nil,
        step: Step? = nil,
        file: String? = nil,
        isBlocked: Bool? = nil,
        newInRun: Int? = nil
    ) {
        self.statuses = statuses
        self.severities = severities
        self.rules = rules
        self.screens = screens
        self.owner = owner
        self.assignee = assignee
        self.source = source
        self.step = step
        self.file = file
        self.isBlocked = isBlocked
        self.newInRun = newInRun
    }

    // MARK: - The wire

    /// The keys of the filter language, in the order the docs list them.
    public static let keys = [
        "status", "severity", "rule", "screen", "owner", "assignee", "source", "step", "file", "blocked", "new-in",
    ]
    /// The keys whose value is a comma-separated list.
    public static let listKeys: Set<String> = ["status", "severity", "rule", "screen"]
    /// The status word for the statuses that need work (FindingLifecycle.needsWorkStatuses): the default.
    public static let openWord = "open"
    /// The status word for every status.
    public static let allWord = "all"
    /// The assignee word for findings nobody is assigned to.
    public static let unassignedWord = Assignee.none
    /// The statuses a query selects when it names none: those that need work.
    public static let defaultStatuses = FindingLifecycle.needsWorkStatuses

    /// The longest rule, owner or file a query takes, in UTF-8 bytes.
    static let maximumValueBytes = 1024

    /// Reads the filter keys of a request (other keys are left to the command). Without `status` the query selects
    /// the findings that need work (`open`); `status=all` selects every one. A key given twice, an empty value, an
    /// unknown status, severity or source, or a malformed name is `invalidArgument` naming the key.
    public static func parse(keywords: [(key: String, value: String)]) throws(CoreError) -> FindingQuery {
        var query = FindingQuery(statuses: defaultStatuses)
        var seen: Set<String> = []
        for (key, value) in keywords where keys.contains(key) {
            guard seen.insert(key).inserted else {
                throw CoreError.invalidArgument(key: key, problem: "\(key) given twice")
            }
            guard !value.isEmpty else { throw CoreError.invalidArgument(key: key, problem: "\(key) needs a value") }
            let words =
                listKeys.contains(key)
                ? value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [value]
            if words.contains(where: \.isEmpty) {
                throw CoreError.invalidArgument(
                    key: key, problem: "\(key) holds an empty name in \(ValueExcerpt.quoted(value))")
            }
            switch key {
            case "status": query.statuses = try statuses(words)
            case "severity": query.severities = try severities(words)
            case "rule": query.rules = try unique(words.map { word throws(CoreError) in try text(word, key: key) })
            case "screen": query.screens = try unique(words.map(screen))
            case "owner": query.owner = ScreenOwner.isNobody(value) ? ScreenOwner.nobody : try text(value, key: key)
            case "assignee": query.assignee = try assignee(value)
            case "source": query.source = try source(value)
            case "step": query.step = try step(value)
            case "file": query.file = try text(value, key: key)
            case "new-in": query.newInRun = try run(value)
            default: query.isBlocked = try yesOrNo(value, key: key)
            }
        }
        if query.isBlocked == true, let statuses = query.statuses, !statuses.contains(.blocked) {
            throw CoreError.invalidArgument(
                key: "blocked",
                problem: "blocked=yes selects the findings blocked on the SDK, and status="
                    + statuses.map(\.rawValue).joined(separator: ",") + " leaves them out")
        }
        return query
    }

    /// The query as the wire keys `parse(keywords:)` reads back, in the order of `keys`; `status=all` when it
    /// selects every status.
    public var keywords: [(key: String, value: String)] {
        var list: [(key: String, value: String)] = []
        let statusWord =
            statuses.map { $0 == Self.defaultStatuses ? Self.openWord : $0.map(\.rawValue).joined(separator: ",") }
        list.append(("status", statusWord ?? Self.allWord))
        if let severities { list.append(("severity", severities.map(\.rawValue).joined(separator: ","))) }
        if let rules { list.append(("rule", rules.joined(separator: ","))) }
        if let screens { list.append(("screen", screens.joined(separator: ","))) }
        if let owner { list.append(("owner", owner)) }
        switch assignee {
        case .unassigned: list.append(("assignee", Self.unassignedWord))
        case .name(let name): list.append(("assignee", name))
        case nil: break
        }
        if let source { list.append(("source", source.rawValue)) }
        switch step {
        case .number(let number): list.append(("step", String(number)))
        case .key(let key): list.append(("step", key))
        case nil: break
        }
        if let file { list.append(("file", file)) }
        if let isBlocked { list.append(("blocked", isBlocked ? "yes" : "no")) }
        if let newInRun { list.append(("new-in", String(newInRun))) }
        return list
    }

    /// The files `file=` selects. The value is a path, never a glob: `Tests/` selects the files under `Tests/`;
    /// `Tests` the file `Tests` and the files under `Tests/` (a name without a trailing slash may be a file or a
    /// directory); `App/Main.swift` that file (and the files under `App/Main.swift/`, which no file system holds).
    /// Both the path and the directory compare byte for byte, as scan scopes do.
    public static func fileMatch(_ file: String) -> (exact: String?, directory: String) {
        file.hasSuffix("/") ? (nil, file) : (file, file + "/")
    }

    /// The least string above every string starting with `directory` (which ends with `/`), byte for byte: the
    /// files under `directory` are those at least `directory` and below this bound, a range an index can answer.
    public static func upperBound(ofDirectory directory: String) -> String {
        // "/" is 0x2F and "0" 0x30: nothing sorts between a prefix ending in "/" and the same ending in "0".
        String(directory.dropLast()) + "0"
    }

    // MARK: - Values

    private static func statuses(_ words: [String]) throws(CoreError) -> [FindingStatus]? {
        if words.contains(allWord) { return nil }
        let expanded = words.flatMap { $0 == openWord ? defaultStatuses.map(\.rawValue) : [$0] }
        return try values(expanded, key: "status", plural: "statuses", also: [openWord, allWord])
    }

    private static func severities(_ words: [String]) throws(CoreError) -> [Severity] {
        try values(words, key: "severity", plural: "severities")
    }

    /// The values `words` name, each once, in the order of their type's cases; a word that names none is
    /// `invalidArgument`, listing `also` and the cases.
    private static func values<Value: CaseIterable & Hashable & RawRepresentable>(
        _ words: [String],
        key: String,
        plural: String,
        also: [String] = []
    ) throws(CoreError) -> [Value] where Value.RawValue == String {
        var chosen: Set<Value> = []
        for word in words {
            guard let value = Value(rawValue: word) else {
                throw CoreError.invalidArgument(
                    key: key,
                    problem: "\(ValueExcerpt.quoted(word)) is not a \(key): \(plural) are "
                        + (also + Value.allCases.map(\.rawValue)).joined(separator: ", "))
            }
            chosen.insert(value)
        }
        return Value.allCases.filter(chosen.contains)
    }

    /// A screen key, or a built-in place (`unmapped`, `app`) in lower case.
    private static func screen(_ word: String) throws(CoreError) -> String {
        if AuditArea.isReserved(word) { return word.lowercased() }
        guard Names.isValidScreenKey(word) else {
            throw CoreError.invalidArgument(
                key: "screen",
                problem:
                    "\(ValueExcerpt.quoted(word)) is not a screen key (1 to \(Names.maximumScreenKeyLength) of A-Z a-z 0-9 . _ -, or \(AuditArea.unmapped))"
            )
        }
        return word
    }

    private static func assignee(_ word: String) throws(CoreError) -> AssigneeFilter {
        if word.lowercased() == unassignedWord { return .unassigned }
        guard Assignee.isValid(word) else {
            throw CoreError.invalidArgument(key: "assignee", problem: Assignee.rule(for: word))
        }
        return .name(word)
    }

    private static func source(_ word: String) throws(CoreError) -> FindingSource? {
        let sources: [FindingSource] = try values([word], key: "source", plural: "sources")
        return sources.first
    }

    private static func step(_ word: String) throws(CoreError) -> Step {
        if let problem = ChecklistStep.problem(naming: word) {
            throw CoreError.invalidArgument(key: "step", problem: problem)
        }
        if let number = Int(word) { return .number(number) }
        return .key(word)
    }

    /// A rule, owner or file: at most `maximumValueBytes`, no control character.
    private static func text(_ word: String, key: String) throws(CoreError) -> String {
        guard word.utf8.count <= maximumValueBytes,
            !word.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw CoreError.invalidArgument(
                key: key, problem: "\(key) must be at most \(maximumValueBytes) bytes without control characters")
        }
        return word
    }

    private static func run(_ word: String) throws(CoreError) -> Int {
        guard let number = Int32(word), number > 0 else {
            throw CoreError.invalidArgument(
                key: "new-in",
                problem: "new-in is a run's number in the project, 1 to 2147483647, not \(ValueExcerpt.quoted(word))")
        }
        return Int(number)
    }

    private static func yesOrNo(_ word: String, key: String) throws(CoreError) -> Bool {
        switch word {
        case "yes": return true
        case "no": return false
        default:
            throw CoreError.invalidArgument(
                key: key, problem: "\(key) must be yes or no, not \(ValueExcerpt.quoted(word))")
        }
    }

    private static func unique(_ words: [String]) -> [String] {
        var seen: Set<String> = []
        return words.filter { seen.insert($0).inserted }
    }
}
