import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

/// A leased resource as the wire shows it: its kind's commands and its record.
protocol LeasedWire: LeasedResource {
    /// The kind, whose requests declare the commands.
    associatedtype Noun: LeasedNoun
    /// The resource as its record (`hook`, `source`).
    var wireRecord: Noun.Record { get }
}

/// LIST, PAUSE, RESUME and REMOVE: the commands every leased resource (hooks, sources) has, declared once by
/// BarkeepAPI's generic requests (`LeasedListRequest`…) and run here once for every kind.
enum LeasedCommands<Resource: LeasedWire> {
    private typealias Store = LeasedResourceStore<Resource>
    private typealias Noun = Resource.Noun

    /// `NOUN LIST [PROJECT]`: a record each, by id.
    static var list: Command {
        Command(LeasedListRequest<Noun>.self) { request, input in
            let version = input.session.protocolVersion
            return .database { connection in
                let resources = try Store.list(project: request.project, on: connection)
                return CommandResult(LeasedListRequest<Noun>.Reply(resources.map(\.wireRecord)), version: version)
            }
        }
    }

    /// `NOUN REMOVE ID`: `OK removed=ID`.
    static var remove: Command {
        Command(LeasedRemoveRequest<Noun>.self) { request, input in
            let actor = input.session.actor
            let version = input.session.protocolVersion
            return .database { connection in
                try Store.remove(request.id.value, actor: actor, on: connection)
                return CommandResult(
                    LeasedRemoveRequest<Noun>.Reply(LeasedRemoved(removed: Int(request.id.value))), version: version)
            }
        }
    }

    /// `NOUN PAUSE ID` or `NOUN RESUME ID` (`Change`): the record as it is now. `reason` says why one is paused by
    /// hand, from the actor (kept where the resource keeps a reason); `check` runs first, on the database thread,
    /// and may refuse.
    static func pausing<Change: LeasedStateChange>(
        _ change: Change.Type,
        reason: @escaping @Sendable (_ actor: String) -> String? = { _ in nil },
        check: @escaping @Sendable (CommandInput) -> (@Sendable (Int64, PostgresConnection) throws -> Void)? = { _ in
            nil
        }
    ) -> Command {
        Command(LeasedStateRequest<Noun, Change>.self) { request, input in
            let id = request.id.value
            let actor = input.session.actor
            let version = input.session.protocolVersion
            let check = check(input)
            return .database { connection in
                try check?(id, connection)
                let resource = try Store.setPaused(
                    id, Change.isPaused, reason: Change.isPaused ? reason(actor) : nil, actor: actor, on: connection)
                return CommandResult(LeasedStateRequest<Noun, Change>.Reply([resource.wireRecord]), version: version)
            }
        }
    }
}
