import BarkeepCore
import BarkeepProtocol
import Foundation

extension StatusParts {
    /// The object `barkeep status --json` prints (and MCP's project_status pages): a member per part — `project`,
    /// `last_scan` (null before the first scan), `totals`, `blocked`, `owners`, `selection`, `screens` and
    /// `unmapped` — each record's fields by JSON name, a dashboard line's untriaged and in-progress counts as
    /// objects by severity (`WorkCountFields.statusJSON`).
    public var statusJSON: [String: Any] {
        [
            "project": project.json, "last_scan": scans.first.map(\.json) ?? NSNull(), "totals": totals.json,
            "blocked": blocked.map(\.json), "owners": owners.map { $0.work.grouped($0.json) },
            "selection": selection.json, "screens": screens.map { $0.work.grouped($0.json) },
            AuditArea.unmapped: unmapped.work.grouped(unmapped.json),
        ]
    }

    /// The JSON Schema of `statusJSON`: each part's record schema, the dashboard lines' counts grouped.
    public static var statusJSONSchema: [String: Any] {
        JSONBodySchema.closed([
            "project": StatusProjectPart.jsonSchema, "last_scan": JSONBodySchema.nullable(StatusScanPart.jsonSchema),
            "totals": StatusTotalsPart.jsonSchema, "blocked": JSONBodySchema.array(StatusBlockedPart.jsonSchema),
            "owners": JSONBodySchema.array(WorkCountFields.groupedSchema(StatusOwnerPart.jsonSchema)),
            "selection": StatusSelectionPart.jsonSchema,
            "screens": JSONBodySchema.array(WorkCountFields.groupedSchema(StatusScreenPart.jsonSchema)),
            AuditArea.unmapped: WorkCountFields.groupedSchema(StatusUnmappedPart.jsonSchema),
        ])
    }
}

extension WorkCountFields {
    /// `object`, the JSON of a dashboard line holding these counts, with the counts of each stage (`untriaged`,
    /// `in_progress`) as one object by severity in place of a member per severity (`untriaged_high`, …); the
    /// counts needing work stay a member per severity, as `blocked` stays a number.
    func grouped(_ object: [String: Any]) -> [String: Any] {
        var object = object
        let stages: [(stage: WorkStage, counts: [Int])] = [(.untriaged, untriaged), (.inProgress, inProgress)]
        for (index, stage) in stages.enumerated() {
            var bySeverity: [String: Any] = [:]
            for (severity, count) in zip(Severity.allCases, stage.counts) { bySeverity[severity.rawValue] = count }
            for key in CompactRecords.stageKeys[index] {
                object.removeValue(forKey: key.replacingOccurrences(of: "-", with: "_"))
            }
            object[stage.stage.rawValue.replacingOccurrences(of: "-", with: "_")] = bySeverity
        }
        return object
    }

    /// `schema`, of a dashboard line's record, as `grouped` shapes its JSON: each stage's counts one object by
    /// severity.
    static func groupedSchema(_ schema: [String: Any]) -> [String: Any] {
        let bySeverity = JSONBodySchema.closed(
            Dictionary(
                uniqueKeysWithValues: Severity.allCases.map { ($0.rawValue, ["type": "integer", "minimum": 0]) })
        )
        var changes: [String: [String: Any]?] = [:]
        for (index, stage) in [WorkStage.untriaged, .inProgress].enumerated() {
            for key in CompactRecords.stageKeys[index] {
                changes[key.replacingOccurrences(of: "-", with: "_")] = .some(nil)
            }
            changes[stage.rawValue.replacingOccurrences(of: "-", with: "_")] = bySeverity
        }
        return JSONBodySchema.amended(schema, changes)
    }
}
