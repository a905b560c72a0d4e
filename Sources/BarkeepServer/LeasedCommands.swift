import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// A leased resource as the wire shows it: its record.
protocol LeasedRecord: LeasedResource {
    /// The resource as its record (`hook`, `source`).
    var record: Record { get }
}

/// LIST, PAUSE, RESUME and REMOVE: the commands every leased resource (hooks, sources) has, declared once. The verb
/// is the resource's noun in upper case (`HOOK LIST`); only the least role of each differs by noun.
enum LeasedCommands<Resource: LeasedRecord> {
    private typealias Store = LeasedResourceStore<Resource>

    /// `NOUN LIST [PROJECT]`: a record each, by id.
    static func list(minimumRole: Role) -> Command {
        Command("\(verb) LIST", positional: 0...1, minimumRole: minimumRole) { input in
            let project = input.request.arguments.first
            return .database { connection in
                CommandResult(.records(try Store.list(project: project, on: connection).map(\.record)))
            }
        }
    }

    /// `NOUN REMOVE ID`: `OK removed=ID`.
    static func remove(minimumRole: Role) -> Command {
        Command("\(verb) REMOVE", positional: 1...1, arguments: [.other], minimumRole: minimumRole) {
            input throws(CommandError) in
            let id = try id(input.argument(0))
            let actor = input.session.actor
            return .database { connection in
                try Store.remove(id, actor: actor, on: connection)
                return CommandResult(.ok(["removed": String(id)]))
            }
        }
    }

    /// `NOUN PAUSE ID` or `NOUN RESUME ID`: the record as it is now. `reason` says why one is paused by hand, from the
    /// actor (kept where the resource keeps a reason); `check` runs first, on the database thread, and may refuse.
    static func pausing(
        _ isPaused: Bool,
        minimumRole: Role,
        reason: @escaping @Sendable (_ actor: String) -> String? = { _ in nil },
        check: @escaping @Sendable (CommandInput) -> (@Sendable (Int64, PostgresConnection) throws -> Void)? = { _ in
            nil
        }
    ) -> Command {
        Command(
            "\(verb) \(isPaused ? "PAUSE" : "RESUME")", positional: 1...1, arguments: [.other],
            minimumRole: minimumRole
        ) { input throws(CommandError) in
            let id = try id(input.argument(0))
            let actor = input.session.actor
            let check = check(input)
            return .database { connection in
                try check?(id, connection)
                let resource = try Store.setPaused(
                    id, isPaused, reason: isPaused ? reason(actor) : nil, actor: actor, on: connection)
                return CommandResult(.records([resource.record]))
            }
        }
    }

    /// An id argument, or `BADARG`.
    static func id(_ text: String) throws(CommandError) -> Int64 {
        guard let id = Int64(text), id > 0 else {
            throw CommandError(.badArgument, "a \(Resource.table.noun) id is a number")
        }
        return id
    }

    /// The commands' verb: the noun in upper case.
    private static var verb: String { Resource.table.noun.uppercased() }
}
