import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// ITEM ADD, ITEM SET, ITEM REMOVE, SDK SET, BLOCKED, POSE RECORD, POSE HISTORY and POSES.
enum AuditCommands {
    static let all: [Command] = [item, itemSet, itemRemove, sdk, blocked, pose, poseHistory, poses]

    static let severities = Severity.allCases.map(\.rawValue)

    static let item = Command(
        "ITEM ADD",
        positional: 1...1,
        keys: ["severity", "sdk"],
        requiredKeys: ["screen", "step", "title"],
        repeatableKeys: ["needs"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let stepText = input.keyword("step") ?? ""
        let title = try itemTitle(input.keyword("title") ?? "")
        let severity = try itemSeverity(input.keyword("severity") ?? Severity.medium.rawValue)
        let needs = try itemNeeds(input.keywords("needs"))
        let sdk = try version(input.keyword("sdk"), key: "sdk")
        let screen = input.keyword("screen") ?? ""
        let actor = input.session.actor
        return .database { connection in
            let newItem = NewItem(
                screen: screen, step: try ItemStore.step(stepText), title: title, needs: needs,
                severity: severity, sdkForUnknown: sdk)
            return CommandResult(
                .records([try ItemStore.add(newItem, to: project, actor: actor, on: connection).record]))
        }
    }

    static let itemSet = Command(
        "ITEM SET",
        positional: 2...2,
        keys: ["title", "step", "severity", "sdk"],
        repeatableKeys: ["needs"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let (project, number) = (input.argument(0), try FindingCommands.number(input.argument(1), of: "item"))
        let needsGiven = input.request.keywordList.contains { $0.key == "needs" }
        let changes = ItemChanges(
            title: try input.keyword("title").map { text throws(CommandError) in try itemTitle(text) },
            step: input.keyword("step"),
            severity: try input.keyword("severity").map { text throws(CommandError) in try itemSeverity(text) },
            // needs= with no value clears them.
            needs: needsGiven ? try itemNeeds(input.keywords("needs").filter { !$0.isEmpty }) : nil,
            sdkForUnknown: try version(input.keyword("sdk"), key: "sdk"))
        guard !changes.isEmpty else {
            throw CommandError(.badArgument, "ITEM SET needs title=, step=, severity= or needs=")
        }
        let actor = input.session.actor
        return .database { connection in
            CommandResult(
                .records([
                    try ItemStore.update(project: project, number: number, changes, actor: actor, on: connection).record
                ]))
        }
    }

    static let itemRemove = Command("ITEM REMOVE", positional: 2...2, minimumRole: .writer) {
        input throws(CommandError) in
        let (project, number) = (input.argument(0), try FindingCommands.number(input.argument(1), of: "item"))
        let actor = input.session.actor
        return .database { connection in
            try ItemStore.remove(project: project, number: number, actor: actor, on: connection)
            return CommandResult(.ok(["removed": String(number)]))
        }
    }

    private static func itemTitle(_ title: String) throws(CommandError) -> String {
        guard !title.isEmpty, title.utf8.count <= 500 else {
            throw CommandError(.badArgument, "title must be 1 to 500 bytes")
        }
        return title
    }

    private static func itemSeverity(_ severity: String) throws(CommandError) -> String {
        guard severities.contains(severity) else {
            throw CommandError(.badArgument, "severity must be one of " + severities.joined(separator: ", "))
        }
        return severity
    }

    private static func itemNeeds(_ needs: [String]) throws(CommandError) -> [String] {
        for symbol in needs where !Names.isValidSymbol(symbol) {
            throw CommandError(
                .badArgument,
                "needs must be an SDK symbol (letters, digits, '_', '.', ':', '(' or ')'), not \(ValueExcerpt.quoted(symbol))"
            )
        }
        return needs
    }

    static let sdk = Command("SDK SET", positional: 2...2, minimumRole: .admin) { input throws(CommandError) in
        let project = input.argument(0)
        guard let version = try version(input.argument(1), key: "the SDK") else {
            throw CommandError(.badArgument, "SDK SET needs a version")
        }
        let actor = input.session.actor
        return .database { connection in
            let update = try SDKStore.setSDK(project: project, to: version, actor: actor, on: connection)
            return CommandResult(
                .summarizedRecords(
                    update.itemChanges.map(\.record),
                    summary: Record([
                        "sdk": update.project.sdk, "previous": update.previous.sdk,
                        "unblocked": String(update.itemChanges.filter { $0.to != .blocked }.count),
                        "blocked": String(update.itemChanges.filter { $0.to == .blocked }.count),
                    ])
                )
            )
        }
    }

    static let blocked = Command("BLOCKED", positional: 1...1, minimumRole: .reader) { input in
        let project = input.argument(0)
        return .database { connection in
            CommandResult(
                .records(
                    try SDKStore.blocked(project: project, on: connection).map { entry in
                        Record([
                            "sdk": entry.sdk?.description ?? "none",
                            "symbol": entry.symbol.isEmpty ? nil : entry.symbol,
                        ]).merging(entry.finding.record)
                    }
                )
            )
        }
    }

    /// `POSE RECORD PROJECT SCREEN POSE RESULT [screenshot= finding= item= reason= build= device=]` records one
    /// result; `POSE RECORD PROJECT [SCREEN] POSE[,POSE…] RESULT [screens=GLOB] [dry-run=yes] …` records it for
    /// every pose listed on the screen, or on every screen the glob matches (components and the app area skipped,
    /// `skipped=yes why=…`), one record per screen and pose with the result it replaces (`from=`).
    static let pose = Command(
        "POSE RECORD",
        positional: 3...4,
        arguments: [.project, .screenKey],
        keys: ["screenshot", "finding", "item", "reason", "build", "device", "screens", "dry-run"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let isKeyed = input.request.arguments.count == 4
        let project = input.argument(0)
        let selection = try ScreenCommands.screenSelection(
            key: isKeyed ? input.argument(1) : nil, input, keys: ["screens"])
        let (poseText, resultText) =
            isKeyed ? (input.argument(2), input.argument(3)) : (input.argument(1), input.argument(2))
        var listed: [String] = []
        for text in poseText.split(separator: ",", omittingEmptySubsequences: false) {
            let pose = try poseName(String(text))
            if !listed.contains(pose) { listed.append(pose) }
        }
        let poses = listed
        let isDryRun = try ScreenCommands.yesNo(input.keyword("dry-run"), key: "dry-run")
        guard let result = PoseResult(rawValue: resultText) else {
            throw CommandError(
                .badArgument, "a pose result is " + PoseResult.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let finding = try input.keyword("finding").map { text throws(CommandError) in
            try FindingCommands.number(text, of: "finding")
        }
        for key in ["screenshot", "item", "reason", "build", "device"] {
            if let value = input.keyword(key), value.utf8.count > 1000 {
                throw CommandError(.badArgument, "\(key) must be at most 1000 bytes")
            }
        }
        let new = NewPoseResult(
            screen: isKeyed ? input.argument(1) : "", pose: poses[0], result: result,
            screenshot: input.keyword("screenshot"), finding: finding, itemTitle: input.keyword("item"),
            reason: input.keyword("reason"), build: input.keyword("build"), device: input.keyword("device"))
        let actor = input.session.actor
        guard !selection.isSingleKey || poses.count > 1 || isDryRun else {
            return .database { connection in
                CommandResult(
                    .records([try PoseStore.record(new, project: project, actor: actor, on: connection).record]))
            }
        }
        return .database { connection in
            let outcomes = try PoseStore.record(
                new, poses: poses, screens: selection, project: project, actor: actor, isDryRun: isDryRun,
                on: connection)
            let recorded = outcomes.filter { $0.record != nil }
            return CommandResult(
                .summarizedRecords(
                    outcomes.map { outcome in
                        guard let record = outcome.record else {
                            return Record([
                                "screen": outcome.screen, "kind": outcome.kind.rawValue, "pose": outcome.pose,
                                "skipped": "yes", "why": outcome.reason,
                            ])
                        }
                        return Record(["kind": outcome.kind.rawValue]).merging(record.record).merging(
                            Record(["from": outcome.previous?.rawValue ?? "none"]))
                    },
                    summary: Record([
                        "recorded": String(recorded.count),
                        "skipped": String(Set(outcomes.filter { $0.record == nil }.map(\.screen)).count),
                        "dry-run": isDryRun ? "yes" : nil,
                    ])))
        }
    }

    static let poseHistory = Command(
        "POSE HISTORY", positional: 2...3, arguments: [.project, .screenKey], minimumRole: .reader
    ) {
        input throws(CommandError) in
        let (project, screen) = (input.argument(0), input.argument(1))
        let pose = input.request.arguments.count > 2 ? try poseName(input.argument(2)) : nil
        return .database { connection in
            CommandResult(
                .records(
                    try PoseStore.history(project: project, screen: screen, pose: pose, on: connection).map(\.record)))
        }
    }

    static let poses = Command("POSES", positional: 1...1, keys: ["screen"], minimumRole: .reader) { input in
        let project = input.argument(0)
        let screen = input.keyword("screen")
        return .database { connection in
            CommandResult(
                .records(try PoseStore.matrix(project: project, screen: screen, on: connection).map(\.record)))
        }
    }

    /// A pose (Core's `Pose`, any case), upper-cased.
    static func poseName(_ text: String) throws(CommandError) -> String {
        guard let pose = Pose(text) else {
            throw CommandError(.badArgument, "unknown pose \(ValueExcerpt.quoted(text)): poses are \(Pose.range)")
        }
        return pose.rawValue
    }

    /// A version as given, checked, in its canonical form.
    static func version(_ text: String?, key: String) throws(CommandError) -> SDKVersion? {
        guard let text else { return nil }
        guard let version = SDKVersion(text) else {
            throw CommandError(.badArgument, "\(key) must be a version such as 27.1, not \(ValueExcerpt.quoted(text))")
        }
        return version
    }
}

extension ItemChange {
    /// The change as an `item` record.
    var record: Record {
        Record([
            "id": String(number), "title": title, "screen": screen ?? AuditArea.unmapped, "from": from.rawValue,
            "to": to.rawValue, "reason": reason, "gate": gate?.description,
        ])
    }
}
