import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// PROJECT CREATE, LIST, SHOW, SET and DELETE; all but SET declared by their specs (BarkeepAPI).
enum ProjectCommands {
    static let all: [Command] = [create, list, show, set, delete]

    static let create = Command(ProjectCreateRequest.self) { request, input in
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let project = try ProjectStore.create(
                name: request.name,
                sdk: request.sdk?.description,
                deploymentTarget: request.deploymentTarget?.description,
                actor: actor,
                on: connection
            )
            return CommandResult(ProjectCreateRequest.Reply([ProjectRecord(project)]), version: version)
        }
    }

    static let list = Command(ProjectListRequest.self) { _, input in
        let version = input.session.protocolVersion
        return .database { connection in
            CommandResult(
                ProjectListRequest.Reply(try ProjectStore.list(on: connection).map(ProjectRecord.init)),
                version: version)
        }
    }

    static let show = Command(ProjectShowRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            CommandResult(
                ProjectShowRequest.Reply([ProjectRecord(try ProjectStore.require(request.name, on: connection))]),
                version: version)
        }
    }

    static let set = Command(ProjectSetRequest.self) { request, input throws(CommandError) in
        guard request.changesSomething else {
            throw CommandError(.badArgument, "PROJECT SET needs sdk=…, deployment-target=… or poses=…")
        }
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let update = try ProjectStore.update(
                name: request.name,
                sdk: request.sdk?.description,
                deploymentTarget: request.deploymentTarget?.description,
                requiredPoses: request.poses?.poses.map(\.rawValue),
                actor: actor,
                on: connection
            )
            return CommandResult(
                ProjectSetRequest.Reply(
                    ProjectRecord(update.project), rows: update.itemChanges.map(ItemChangeRecord.init)),
                version: version)
        }
    }

    static let delete = Command(ProjectDeleteRequest.self) { request, input in
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            try ProjectStore.delete(name: request.name, actor: actor, on: connection)
            return CommandResult(ProjectDeleteRequest.Reply(ProjectDeleted(deleted: request.name)), version: version)
        }
    }

    /// A comma-separated list of poses (`P1,P2,P11`), upper-cased, each once, in the order given.
    static func poseList(_ text: String?) throws(CommandError) -> [String]? {
        guard let text else { return nil }
        var poses: [String] = []
        for text in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pose = try PoseCommands.poseName(String(text))
            if !poses.contains(pose) { poses.append(pose) }
        }
        return poses
    }
}

extension ProjectRecord {
    /// The project's record.
    init(_ project: Project) {
        self.init()
        name = project.name
        sdk = project.sdk
        deploymentTarget = project.deploymentTarget
        requiredPoses = project.requiredPoses
        created = project.createdAt.postgresText
    }
}
