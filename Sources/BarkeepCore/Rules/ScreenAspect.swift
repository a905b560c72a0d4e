/// What a change over screens touches on a row. Each aspect belongs to some kinds of row only: a component has no
/// checklist steps or poses of its own (the screens that use it have them), and the app area is built in.
public enum ScreenAspect: String, Sendable, CaseIterable {
    /// Who owns the row.
    case owner
    /// The poses the row must pass.
    case poses
    /// The row's checklist steps.
    case steps
    /// The row's pose results.
    case poseResults = "pose-results"
    /// The row itself, removed with its steps and pose results.
    case removal

    /// Why a row of `kind` takes no change of this aspect, or nil when it does.
    public func refusal(for kind: ScreenKind, key: String) -> String? {
        switch (self, kind) {
        case (.owner, _), (_, .screen), (.removal, .component): nil
        case (.poses, .component), (.poseResults, .component):
            "\(key) is a component: the screens that use it are verified in poses"
        case (.steps, .component): "\(key) is a component: the screens that use it have the checklist steps"
        case (.removal, .area): "the app area is built in: it cannot be removed (change its paths instead)"
        case (.poses, .area), (.poseResults, .area), (.steps, .area):
            "the app area has no checklist steps or poses: it is done when none of its findings needs work"
        }
    }
}

/// How a change treats one row a selection picked: the aspects it applies there and those it skips, with why.
public struct ScreenTreatment: Sendable, Equatable {
    /// The row's key.
    public let key: String
    /// The row's kind.
    public let kind: ScreenKind
    /// The aspects the change applies to it.
    public let applied: [ScreenAspect]
    /// The aspects it skips there.
    public let skipped: [ScreenAspect]
    /// Why the first skipped aspect is skipped; nil when none is.
    public let reason: String?

    /// Whether the change leaves the row alone altogether.
    public var isSkipped: Bool { applied.isEmpty }
}

extension ScreenSelection {
    /// The one rule of every change over many screens: each picked row takes the aspects of the change that make
    /// sense for its kind and skips the others, with why; a selection is never refused for what it merely
    /// matched. `rows` are the rows the selection picked, in order.
    public func treatments(of rows: [(key: String, kind: ScreenKind)], aspects: [ScreenAspect]) -> [ScreenTreatment] {
        rows.map { row in
            let reasons = aspects.map { ($0, $0.refusal(for: row.kind, key: row.key)) }
            return ScreenTreatment(
                key: row.key, kind: row.kind, applied: reasons.filter { $0.1 == nil }.map(\.0),
                skipped: reasons.filter { $0.1 != nil }.map(\.0), reason: reasons.lazy.compactMap(\.1).first)
        }
    }

    /// Why the change is refused outright: a row named by its key that cannot take all of it (it was named on
    /// purpose, so a partial change would surprise). Nil for a glob, an owner or `all`, which skip instead.
    public func refusal(of treatments: [ScreenTreatment]) -> String? {
        guard isSingleKey else { return nil }
        return treatments.lazy.compactMap(\.reason).first
    }
}
