import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Reference data

    /// A domain file's value as the comparison writes it: text as is, null as `NULL`, string lists joined by `|`.
    static func text(_ value: Any?) -> String {
        switch value {
        case let string as String: string
        case let strings as [String]: strings.joined(separator: "|")
        case let number as Int: String(number)
        default: value == nil || value is NSNull ? "NULL" : "unreadable \(String(describing: value))"
        }
    }

    func expectSameRows(
        _ stored: [[String]],
        _ expected: [[String]],
        _ table: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let storedSet = Set(stored)
        let expectedSet = Set(expected)
        #expect(stored.count == expected.count, "\(table): row counts differ", sourceLocation: sourceLocation)
        let extra = storedSet.subtracting(expectedSet).map(\.description).sorted()
        let missing = expectedSet.subtracting(storedSet).map(\.description).sorted()
        #expect(
            storedSet == expectedSet, "\(table): not in the domain file \(extra); missing \(missing)",
            sourceLocation: sourceLocation)
    }

    @Test("checklist_steps holds exactly the steps of checklist.json: step, key, summary, rules, 27.1 symbols")
    func checklistReference() throws {
        let steps = try #require(try Fixtures.domain("checklist.json")["steps"] as? [[String: Any]])
        #expect(steps.count == 12)
        let expected = steps.map { step in
            ["step", "key", "summary", "rules", "sdk_27_1_symbols"].map { Self.text(step[$0]) }
        }
        let stored = try rows(
            """
            SELECT step, key, summary, array_to_string(rules, '|'), array_to_string(sdk_symbols, '|')
            FROM checklist_steps
            """)
        expectSameRows(stored, expected, "checklist_steps")
        #expect(try rows("SELECT key FROM checklist_steps ORDER BY step").map { $0[0] } == Self.stepKeys)
    }

    @Test("checklist_steps, as the migrations leave it, holds Core's ChecklistStep.all in every column")
    func checklistMatchesCore() throws {
        let columns = try rows(
            """
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = 'checklist_steps' ORDER BY ordinal_position
            """
        ).map { $0[0] }
        #expect(columns == ["step", "key", "summary", "rules", "sdk_symbols"], "a column Core does not know")
        let stored = try connection.query(
            "SELECT step, key, summary, rules, sdk_symbols FROM checklist_steps ORDER BY step"
        ).map { row in
            let number: Int = try row.decode("step")
            return ChecklistStep(
                number: number, key: try row.decode("key"), asks: ChecklistStep.numbered(number)?.asks ?? "",
                summary: try row.decode("summary"), rules: try row.decode("rules"),
                sdkSymbols: try row.decode("sdk_symbols"))
        }
        #expect(stored.count == ChecklistStep.all.count)
        for (row, step) in zip(stored, ChecklistStep.all) { #expect(row == step, "step \(step.number)") }
    }

    @Test("rules holds exactly the rules of rules.json: id, title, severity, skill, scope, tier, checklist step")
    func rulesReference() throws {
        let rules = try #require(try Fixtures.domain("rules.json")["rules"] as? [[String: Any]])
        #expect(rules.count == 15)
        let expected = rules.map { rule in
            ["id", "title", "severity", "skill", "scope", "tier", "bars_checklist_step"].map { Self.text(rule[$0]) }
        }
        let stored = try rows("SELECT id, title, severity, skill, scope, tier, step FROM rules")
        expectSameRows(stored, expected, "rules")
    }

    @Test("poses holds exactly the poses of poses.json, in its order, and projects require its default poses")
    func posesReference() throws {
        let domain = try Fixtures.domain("poses.json")
        let poses = try #require(domain["poses"] as? [[String: Any]])
        #expect(poses.count == 16)
        let expected = poses.enumerated().map { index, pose in
            [
                Self.text(pose["id"]), String(index + 1), Self.text(pose["state"]),
                (pose["device_only"] as? Bool).map { $0 ? "t" : "f" } ?? "NULL", Self.text(pose["concern"]),
            ]
        }
        let stored = try rows("SELECT id, ordinal, state, device_only, concern FROM poses")
        expectSameRows(stored, expected, "poses")
        #expect(try ProjectStore.require("app", on: connection).requiredPoses == Self.defaultPoses)
        #expect(domain["default_required_for_bars"] as? [String] == Self.defaultPoses)
    }

    @Test("sdk_symbols holds exactly the symbols of sdk-symbols.json: symbol, area, SDK, note")
    func sdkSymbolsReference() throws {
        let symbols = try #require(try Fixtures.domain("sdk-symbols.json")["symbols"] as? [[String: Any]])
        #expect(symbols.count == 84)
        let expected = symbols.map { symbol in ["symbol", "area", "sdk", "note"].map { Self.text(symbol[$0]) } }
        let stored = try rows("SELECT symbol, area, sdk, note FROM sdk_symbols")
        expectSameRows(stored, expected, "sdk_symbols")
    }
}
