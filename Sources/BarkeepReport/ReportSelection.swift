import BarkeepCore

/// Which part of a project a readiness report covers: every screen, or the screens of one owner, or those whose key
/// matches a glob, or both at once.
///
/// A part holds the chosen screens (and the app area when it is chosen), the findings of those screens and of the
/// components they use, and their poses and steps. The unmapped bucket belongs to no owner and matches no key, so
/// only the whole project's report lists it. The burndown always counts the whole project.
public struct ReportSelection: Sendable, Equatable {
    /// The owner whose screens are reported, exactly as recorded.
    public var owner: String?
    /// A glob over screen keys (`Feed*`, `Settings?`): `*` any run of characters, `?` one character.
    public var keyGlob: String?

    /// Every screen of the project.
    public static let wholeProject = ReportSelection()

    /// A selection; with neither an owner nor a glob it is the whole project.
    public init(owner: String? = nil, keyGlob: String? = nil) {
        self.owner = owner
        self.keyGlob = keyGlob
    }

    /// Whether it is the whole project rather than a part.
    public var isWholeProject: Bool { owner == nil && keyGlob == nil }

    /// Whether the screen (or the app area) with this key and owner is in the part.
    public func includes(key: String, owner screenOwner: String?) -> Bool {
        if let owner, !ScreenOwner.matches(screenOwner, filter: owner) { return false }
        if let keyGlob, !PathGlob(keyGlob).matches(key) { return false }
        return true
    }

    /// The screens and the app area of `status` the part holds, in the status's order.
    public func screens(of status: ProjectStatusReply) -> [ScreenStatusRecord] {
        status.screens.filter { includes(key: $0.key, owner: $0.owner) }
    }

    /// How the report names the part: `screens owned by ana whose key matches Feed*` (the glob as code).
    var description: [Inline] {
        var pieces: [Inline] = [.text("screens")]
        if let owner { pieces.append(.text(" owned by \(owner)")) }
        if let keyGlob { pieces += [.text(" whose key matches "), .code(keyGlob)] }
        return pieces
    }
}
