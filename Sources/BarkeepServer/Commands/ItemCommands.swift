import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// ITEM ADD, ITEM SET and ITEM REMOVE: audit items added, edited and removed by hand.
enum ItemCommands {
    static let all: [Command] = [add, set, remove]

    static let add = Command(ItemAddRequest.self) { request, input in
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let newItem = NewItem(
                screen: request.screen, step: try ItemStore.step(request.step.text), title: request.title,
                needs: request.needs.map(\.name), severity: (request.severity ?? .medium).rawValue,
                sdkForUnknown: request.sdk)
            let item = try ItemStore.add(newItem, to: request.project, actor: actor, on: connection)
            return CommandResult(ItemAddRequest.Reply([FindingRecord(item)]), version: version)
        }
    }

    static let set = Command(ItemSetRequest.self) { request, input throws(CommandError) in
        let changes = ItemChanges(
            title: request.title, step: request.step, severity: request.severity?.rawValue,
            needs: request.neededSymbols,
            sdkForUnknown: request.sdk)
        guard !changes.isEmpty else {
            throw CommandError(.badArgument, "ITEM SET needs title=, step=, severity= or needs=")
        }
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let item = try ItemStore.update(
                project: request.project, number: request.number.value, changes, actor: actor, on: connection)
            return CommandResult(ItemSetRequest.Reply([FindingRecord(item)]), version: version)
        }
    }

    static let remove = Command(ItemRemoveRequest.self) { request, input in
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            try ItemStore.remove(project: request.project, number: request.number.value, actor: actor, on: connection)
            return CommandResult(ItemRemoveRequest.Reply(ItemRemoved(removed: request.number.value)), version: version)
        }
    }
}
