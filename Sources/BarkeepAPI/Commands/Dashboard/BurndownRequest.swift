import BarkeepCore
import BarkeepProtocol
import Foundation

/// `BURNDOWN PROJECT [by=run|day|week]`: the findings needing work and the blocked items over time.
public struct BurndownRequest: CommandRequest {
    /// A `point` record per point, oldest first.
    public typealias Reply = RecordsReply<BurndownRecord>
    /// The project.
    public var project = ""
    /// Where the points are taken; nil: after each run.
    public var granularity: Burndown.Granularity?

    /// An empty request, filled by decoding.
    public init() {}
    /// The burndown of `project` by `granularity`.
    public init(project: String, granularity: Burndown.Granularity) {
        self.project = project
        self.granularity = granularity
    }

    /// The command.
    public static let spec = CommandSpec(
        "BURNDOWN", role: .reader, effect: .read,
        summary: "The findings needing work and the items blocked, after each run or at the end of each day or week.",
        http: .get("projects/{project}/burndown"))
    /// Its arguments.
    public static let fields: [Field<BurndownRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("by", \.granularity, QuantityText.choices(Burndown.Granularity.self, default: .standard) + "."),
    ]
}

extension Burndown.Granularity: WireEnum {}

/// A point of the burndown.
public struct BurndownRecord: WireFields {
    /// `run 12`, `2026-11-29`, `2026-W48` or `now`.
    public var label = ""
    /// The moment it stands for.
    public var at = Date(timeIntervalSince1970: 0)
    /// Findings needing work then.
    public var needsWork = 0
    /// Items blocked on the SDK then.
    public var blocked = 0

    /// An empty record, filled by decoding.
    public init() {}

    /// The record of `point`.
    public init(_ point: BurndownPoint) {
        label = point.label
        at = point.at
        needsWork = point.needsWork
        blocked = point.blocked
    }

    /// The point it carries.
    public var point: BurndownPoint { BurndownPoint(label: label, at: at, needsWork: needsWork, blocked: blocked) }

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "point"

    /// The fields, in wire order.
    public static let fields: [Field<BurndownRecord>] = [
        Field("label", \.label, "run N, a day, an ISO week, or now."),
        Field("at", \.at, "The moment it stands for."),
        Field("needs-work", \.needsWork, "Findings needing work then."),
        Field("blocked", \.blocked, "Items blocked on the SDK then."),
    ]
}
