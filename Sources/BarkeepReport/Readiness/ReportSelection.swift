import BarkeepCore

/// Which part of a project a readiness report covers: every screen, or the screens of one owner, or those whose key
/// matches a glob, or both at once; and of those, maybe only a page of rows.
///
/// A part holds the chosen screens (and the app area when it is chosen), the findings of those screens and of the
/// components they use, and their poses and steps. The unmapped bucket belongs to no owner and matches no key, so
/// only the whole project's report lists it. The burndown always counts the whole project.
public struct ReportSelection: Sendable, Equatable {
    /// The owner whose screens are reported, exactly as recorded.
    public var owner: String?
    /// A glob over screen keys (`Feed*`, `Settings?`): `*` any run of characters, `?` one character.
    public var keyGlob: String?
    /// A page: only these rows (0 the first) of the screens and app area the owner and the glob choose, in the
    /// status's order (by key); nil for all of them.
    public var rows: Range<Int>?

    /// Every screen of the project.
    public static let wholeProject = ReportSelection()

    /// A selection; with neither an owner, a glob nor rows it is the whole project.
    public init(owner: String? = nil, keyGlob: String? = nil, rows: Range<Int>? = nil) {
        self.owner = owner
        self.keyGlob = keyGlob
        self.rows = rows
    }

    /// Whether it is the whole project rather than a part.
    public var isWholeProject: Bool { owner == nil && keyGlob == nil && rows == nil }

    /// Whether the screen (or the app area) with this key and owner is in the part.
    public func includes(key: String, owner screenOwner: String?) -> Bool {
        if let owner, !ScreenOwner.matches(screenOwner, filter: owner) { return false }
        if let keyGlob, !PathGlob(keyGlob).matches(key) { return false }
        return true
    }

    /// The screens and the app area of `status` the part holds, in the status's order: those the owner and the glob
    /// choose, then the page's rows of them.
    public func screens(of status: ProjectStatusReply) -> [ScreenStatusRecord] {
        let chosen = status.screens.filter { includes(key: $0.key, owner: $0.owner) }
        guard let rows else { return chosen }
        return Array(chosen.dropFirst(rows.lowerBound).prefix(rows.count))
    }

    /// How the report names the part: `screens owned by ana whose key matches Feed*` (the glob as code).
    var description: [Inline] {
        var pieces: [Inline] = [.text("screens")]
        if let owner { pieces.append(.text(" owned by \(owner)")) }
        if let keyGlob { pieces += [.text(" whose key matches "), .code(keyGlob)] }
        if let rows { pieces.append(.text(" (\(rows.lowerBound + 1) to \(rows.upperBound) of them by key)")) }
        return pieces
    }
}
