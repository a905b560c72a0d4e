import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// SDK SET and BLOCKED: the iOS SDK a project builds with, and the items blocked on it.
enum SDKCommands {
    static let all: [Command] = [set, blocked]

    static let set = Command(SDKSetRequest.self) { request, input in
        let sdk = request.version.version
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let update = try SDKStore.setSDK(project: request.project, to: sdk, actor: actor, on: connection)
            let changes = update.itemChanges.map(ItemChangeRecord.init)
            return CommandResult(
                SDKSetRequest.Reply(
                    changes,
                    summary: SDKChange(sdk: update.project.sdk, previous: update.previous.sdk, changes: changes)),
                version: version)
        }
    }

    static let blocked = Command(BlockedRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let blocked = try SDKStore.blocked(project: request.project, on: connection).map { entry in
                BlockedRecord(
                    sdk: entry.sdk?.description ?? BlockedRecord.noSDK,
                    symbol: entry.symbol.isEmpty ? nil : entry.symbol,
                    finding: FindingRecord(entry.finding))
            }
            return CommandResult(BlockedRequest.Reply(blocked), version: version)
        }
    }
}
