import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// How requests name many screens at once (`STEP SET`, `SCREEN SET`, `SCREEN REMOVE`) and which rows a listing
/// shows (`STATUS`, `SCREEN LIST`).
extension ScreenCommands {
    /// The largest `limit=` of a listing.
    static let maximumLimit = ScreenListing.maximumLimit

    /// The screens a request picks: its positional `key` when given, else exactly one of the selection keys it
    /// accepts (`screens=GLOB`, `owner=NAME`, `all=yes`).
    static func screenSelection(
        key: String?,
        _ input: CommandInput,
        keys: [String] = ["screens", "owner", "all"]
    ) throws(CommandError) -> ScreenSelection {
        // `all=` is read only when it is the one selection key given, as it always was.
        let picksAll = keys.contains("all") && input.keyword("all") != nil
        let all: Bool? =
            picksAll ? (key == nil ? try yesNo(input.keyword("all"), key: "all") : false) : nil
        return try screenSelection(
            key: key, screens: keys.contains("screens") ? input.keyword("screens") : nil,
            owner: keys.contains("owner") ? input.keyword("owner") : nil, all: all, keys: keys)
    }

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

    /// The rows a listing shows: `owner=NAME`, `not-done=yes`, `sort=key|work|owner`, `limit=N` and, when
    /// `allowsKind`, `kind=screen|component|area`.
    static func screenListing(_ input: CommandInput, allowsKind: Bool = false) throws(CommandError) -> ScreenListing {
        var listing = ScreenListing()
        if let owner = input.keyword("owner") {
            guard !owner.isEmpty else { throw CommandError(.badArgument, "owner= needs a name") }
            listing.owner = owner
        }
        listing.isNotDoneOnly = try yesNo(input.keyword("not-done"), key: "not-done")
        if let sort = input.keyword("sort") {
            guard let order = ScreenOrder(rawValue: sort) else {
                throw CommandError(
                    .badArgument, "sort must be " + ScreenOrder.allCases.map(\.rawValue).joined(separator: ", "))
            }
            listing.order = order
        }
        if let text = input.keyword("limit") {
            guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
                throw CommandError(.badArgument, "limit must be a number from 1 to \(maximumLimit)")
            }
            listing.limit = limit
        }
        if allowsKind, let text = input.keyword("kind") {
            guard let kind = ScreenKind(rawValue: text) else {
                throw CommandError(
                    .badArgument, "kind must be " + ScreenKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            listing.kind = kind
        }
        return listing
    }
}

extension ScreenListing {
    /// The `selection` record of a listing: the filters given, how many rows passed them and how many are shown.
    func record(matched: Int, shown: Int) -> Record {
        Record([
            "type": "selection", "owner": owner, "not-done": isNotDoneOnly ? "yes" : nil,
            "kind": kind?.rawValue, "sort": order.rawValue, "limit": limit.map(String.init),
            "matched": String(matched), "shown": String(shown),
        ])
    }
}
