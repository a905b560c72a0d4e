import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// How requests name many screens at once (`STEP SET`, `SCREEN SET`, `SCREEN REMOVE`) and which rows a listing
/// shows (`STATUS`, `SCREEN LIST`).
extension ScreenCommands {

    /// The screens a request picks: `key` when given, else exactly one of `screens`, `owner` and `all` (of the
    /// selection keys the command accepts, `keys`).
    static func screenSelection(
        key: String?, screens: String?, owner: String?, all: Bool?,
        keys: [String] = ["screens", "owner", "all"]
    ) throws(CommandError) -> ScreenSelection {
        let values: [String: Bool] = ["screens": screens != nil, "owner": owner != nil, "all": all != nil]
        let given = keys.filter { values[$0] == true }
        if let key {
            guard given.isEmpty else {
                throw CommandError(.badArgument, "give a screen key or \(given[0])=, not both")
            }
            return .key(key)
        }
        guard given.count == 1 else {
            throw CommandError(
                .badArgument,
                "name the screens: a key, or one of "
                    + keys.map { $0 == "all" ? "all=yes" : "\($0)=" }
                    .joined(separator: ", "))
        }
        switch given[0] {
        case "screens":
            guard let glob = KeyGlob(screens ?? "") else {
                throw CommandError(
                    .badArgument, "screens= is a glob of screen keys: 1 to 128 of A-Z a-z 0-9 . _ - * ?")
            }
            return .keys(glob)
        case "owner":
            let owner = owner ?? ""
            guard !owner.isEmpty else { throw CommandError(.badArgument, "owner= needs a name") }
            return .owner(owner)
        default:
            guard all == true else {
                throw CommandError(.badArgument, "all= must be yes to pick every screen")
            }
            return .all
        }
    }
}
