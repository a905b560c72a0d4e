import BarkeepAPI

/// Prints the `item` records of an SDK change: what became workable, what needs an availability gate, what is
/// blocked now.
enum ItemChanges {
    /// A sentence and a table; nothing when no item changed.
    static func print(_ changes: [ItemChangeRecord]) {
        let unblocked = changes.filter { !$0.isBlocked }
        let blocked = changes.filter(\.isBlocked)
        if changes.isEmpty { Swift.print("No item changed.") }
        if !unblocked.isEmpty {
            let gated = unblocked.filter { $0.gate != nil }.count
            Swift.print(
                "Unblocked \(Output.count(unblocked.count, "item")), now workable"
                    + (gated > 0 ? "; \(gated) of them \(gated == 1 ? "needs" : "need") an availability gate:" : ":"))
            Output.table(
                ["#", "SCREEN", "ITEM", "NOW", "GATE"],
                unblocked.map { change in
                    [
                        String(change.id), change.screen, change.title, change.to.rawValue,
                        change.gate.map { "if #available(iOS \($0), *)" } ?? "-",
                    ]
                }
            )
        }
        if !blocked.isEmpty {
            Swift.print("Blocked \(Output.count(blocked.count, "item")):")
            Output.table(
                ["#", "SCREEN", "ITEM", "WAS", "WHY"],
                blocked.map { change in
                    [String(change.id), change.screen, change.title, change.from.rawValue, change.reason ?? ""]
                }
            )
        }
    }
}
