import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// PROJECT CREATE, LIST, SHOW, SET and DELETE.
enum ProjectCommands {
    static let all: [Command] = [create, list, show, set, delete]

    static let create = Command(
        "PROJECT CREATE",
        positional: 1...1,
        keys: ["sdk", "deployment-target"],
        minimumRole: .admin
    ) { input throws(CommandError) in
        let name = try projectName(input.argument(0))
        let sdk = try AuditCommands.version(input.keyword("sdk"), key: "sdk")?.description
        let target = try AuditCommands.version(input.keyword("deployment-target"), key: "deployment-target")?
            .description
        let actor = input.session.actor
        return .database { connection in
            let project = try ProjectStore.create(
                name: name,
                sdk: sdk,
                deploymentTarget: target,
                actor: actor,
                on: connection
            )
            return CommandResult(.records([project.record]))
        }
    }

    static let list = Command("PROJECT LIST", minimumRole: .reader) { _ in
        .database { connection in
            CommandResult(.records(try ProjectStore.list(on: connection).map(\.record)))
        }
    }

    static let show = Command("PROJECT SHOW", positional: 1...1, minimumRole: .reader) { input in
        let name = input.argument(0)
        return .database { connection in
            CommandResult(.records([try ProjectStore.require(name, on: connection).record]))
        }
    }

    static let set = Command(
        "PROJECT SET",
        positional: 1...1,
        keys: ["sdk", "deployment-target", "poses"],
        minimumRole: .admin
    ) { input throws(CommandError) in
        let name = input.argument(0)
        let sdk = try AuditCommands.version(input.keyword("sdk"), key: "sdk")?.description
        let target = try AuditCommands.version(input.keyword("deployment-target"), key: "deployment-target")?
            .description
        let poses = try poseList(input.keyword("poses"))
        guard sdk != nil || target != nil || poses != nil else {
            throw CommandError(.badArgument, "PROJECT SET needs sdk=…, deployment-target=… or poses=…")
        }
        let actor = input.session.actor
        return .database { connection in
            let update = try ProjectStore.update(
                name: name,
                sdk: sdk,
                deploymentTarget: target,
                requiredPoses: poses,
                actor: actor,
                on: connection
            )
            return CommandResult(.records([update.project.record] + update.itemChanges.map(\.record)))
        }
    }

    static let delete = Command("PROJECT DELETE", positional: 1...1, minimumRole: .admin) { input in
        let name = input.argument(0)
        let actor = input.session.actor
        return .database { connection in
            try ProjectStore.delete(name: name, actor: actor, on: connection)
            return CommandResult(.ok(["deleted": name]))
        }
    }

    private static func projectName(_ name: String) throws(CommandError) -> String {
        guard Names.isValidProject(name) else {
            throw CommandError(
                .badArgument,
                "a project name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
            )
        }
        return name
    }

    /// A comma-separated list of poses (`P1,P2,P11`), upper-cased, each once, in the order given.
    static func poseList(_ text: String?) throws(CommandError) -> [String]? {
        guard let text else { return nil }
        var poses: [String] = []
        for text in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pose = try AuditCommands.poseName(String(text))
            if !poses.contains(pose) { poses.append(pose) }
        }
        return poses
    }
}

extension Project {
    /// The project as a `project` record.
    var record: Record {
        Record([
            "name": name, "sdk": sdk, "deployment-target": deploymentTarget,
            "required-poses": requiredPoses.joined(separator: ","), "created": createdAt.postgresText,
        ])
    }
}
