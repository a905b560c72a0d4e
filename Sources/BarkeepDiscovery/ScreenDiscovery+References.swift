extension ScreenDiscovery {
    /// How many other types of the project may lie between a view type and a UIKit view it uses: a screen names its
    /// view model, whose code names a section type, whose code registers the cell.
    static let maximumReferenceDepth = 2

    /// The `targets` (UIKit views, and SwiftUI views no view type creates) each view type uses, from what its code
    /// names (`Evidence/references`): a target is used
    /// by the view types whose code names it (created, registered, cast to, declared: `StatusCell.self`, `as?
    /// StatusCell`, a nib's name); when none does, by those whose code names the other types of the project that
    /// name it (a section type registering the cell, the cell's delegate protocol), or that name these, through at
    /// most ``maximumReferenceDepth`` such types: the nearest view types only. A type that more view types name
    /// than ``hubLimit(viewTypes:)`` (a coordinator, the app's context, a protocol every screen adopts) leads
    /// nowhere: through it, every screen would use every view.
    static func referenceUses(
        _ references: [String: Set<String>], viewTypes: Set<String>, targets: Set<String>
    ) -> [String: Set<String>] {
        var referrers: [String: Set<String>] = [:]
        for (from, targets) in references {
            for target in targets where target != from { referrers[target, default: []].insert(from) }
        }
        let limit = hubLimit(viewTypes: viewTypes.count)
        let hubs = Set(
            referrers.filter { node, from in
                !viewTypes.contains(node) && from.lazy.filter(viewTypes.contains).count > limit
            }.keys)
        var uses: [String: Set<String>] = [:]
        for view in targets {
            var frontier: Set<String> = [view]
            var seen: Set<String> = [view]
            for depth in 0...maximumReferenceDepth where !frontier.isEmpty {
                var next: Set<String> = []
                var isFound = false
                for node in frontier {
                    for referrer in referrers[node] ?? [] where seen.insert(referrer).inserted {
                        if viewTypes.contains(referrer) {
                            uses[referrer, default: []].insert(view)
                            isFound = true
                        } else if depth < maximumReferenceDepth && !hubs.contains(referrer) {
                            next.insert(referrer)
                        }
                    }
                }
                frontier = isFound ? [] : next
            }
        }
        return uses
    }

    /// How many view types may name a type before it counts as everyone's (a hub): a tenth of them, at least 8.
    static func hubLimit(viewTypes: Int) -> Int { max(8, viewTypes / 10) }
}
