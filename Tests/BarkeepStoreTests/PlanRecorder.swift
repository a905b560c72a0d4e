import BarkeepStore
import Foundation

/// The plans of the statements a connection runs, as PostgreSQL itself reports them while it runs them.
///
/// `auto_explain`, a module that ships with the server, reports the plan of every statement the executor runs —
/// nested ones too: a trigger's, a function's — and at `log_level = notice` it sends each report to the session that
/// ran the statement, which `PostgresConnection.noticeReceiver` hands here. Plans only (no `ANALYZE`): nothing is
/// timed or run twice, and no statement is copied into a test, so a change to the store's SQL is checked as it is.
final class PlanRecorder {
    /// One statement's plan.
    struct Plan {
        /// What the test was doing when the statement ran (a sync with churn, `STATUS`, …).
        var scenario: String
        /// The statement as PostgreSQL received it: the store's text, or a trigger's or function's own statement.
        var statement: String
        /// The plan's top node, as `EXPLAIN (FORMAT JSON)` writes it.
        var root: [String: Any]
    }

    private let connection: PostgresConnection
    private var scenario: String?
    /// The plans recorded so far, in the order their statements finished.
    private(set) var plans: [Plan] = []
    /// Reports of a plan that could not be read (none expected).
    private(set) var unreadable: [String] = []

    /// Loads `auto_explain` into `connection`'s session, reporting nothing until `record` runs. `isAnalyzing` adds
    /// what each node really read (rows, loops and rows filtered out; no timing) to the plans: the statements still
    /// run once, as they would.
    init(on connection: PostgresConnection, isAnalyzing: Bool = false) throws {
        self.connection = connection
        try connection.query("LOAD 'auto_explain'")
        for setting in [
            "auto_explain.log_min_duration = -1", "auto_explain.log_analyze = \(isAnalyzing ? "on" : "off")",
            "auto_explain.log_timing = off",
            "auto_explain.log_nested_statements = on", "auto_explain.log_format = json",
            "auto_explain.log_level = notice", "client_min_messages = notice",
        ] {
            try connection.query("SET " + setting)
        }
        connection.noticeReceiver = { [weak self] message in self?.receive(message) }
    }

    /// Runs `body`, recording the plan of every statement it runs on the connection under `scenario`.
    func record<T>(_ scenario: String, _ body: () throws -> T) throws -> T {
        try connection.query("SET auto_explain.log_min_duration = 0")
        self.scenario = scenario
        defer {
            self.scenario = nil
            _ = try? connection.query("SET auto_explain.log_min_duration = -1")
        }
        return try body()
    }

    /// The plans recorded under `scenario`.
    func plans(of scenario: String) -> [Plan] { plans.filter { $0.scenario == scenario } }

    private func receive(_ message: String) {
        // auto_explain's report: "duration: 0.000 ms  plan:\n" and the plan in JSON. Other notices are not plans.
        guard let scenario, message.hasPrefix("duration: "), let start = message.range(of: "plan:\n") else { return }
        guard let object = try? JSONSerialization.jsonObject(with: Data(message[start.upperBound...].utf8)),
            let report = object as? [String: Any], let root = report["Plan"] as? [String: Any]
        else {
            unreadable.append(message)
            return
        }
        plans.append(Plan(scenario: scenario, statement: report["Query Text"] as? String ?? "", root: root))
    }
}

extension PlanRecorder.Plan {
    /// Each scan of one of `tables` that reads the same rows again once per row of something else, said with why it
    /// repeats and what it reads: anywhere under the inner side of a Nested Loop (a join, or a lateral subquery)
    /// whose outer side the planner expects to be more than one row, or in a SubPlan (a correlated subquery, run per
    /// row; a hashed SubPlan or an InitPlan runs once). Such a scan is
    /// a sequential scan, or an index scan whose index condition does not depend on the row (a project's whole range
    /// of an index, read each time and filtered). The shape that turns a sync of thousands of rows into thousands of
    /// scans of a project's findings.
    func scansInLoops(of tables: Set<String>) -> [String] {
        var found: [String] = []
        func visit(_ node: [String: Any], loop: String?) {
            let type = node["Node Type"] as? String ?? "?"
            if let loop, let relation = node["Relation Name"] as? String, tables.contains(relation) {
                let scan = "\(type) on \(relation) \(node["Alias"] as? String ?? "")"
                if type == "Seq Scan" {
                    found.append("\(scan) \(loop)")
                } else if !Self.keyConditions(of: node).contains(where: Self.dependsOnRow) {
                    found.append("\(scan) \(loop), its index condition the same for every row")
                }
            }
            let children = node["Plans"] as? [[String: Any]] ?? []
            // A Nested Loop runs its inner side once per row of its outer side: a loop unless that is one row.
            let outerRows = children.first { $0["Parent Relationship"] as? String == "Outer" }?["Plan Rows"] as? Double
            for child in children {
                let relationship = child["Parent Relationship"] as? String
                var inner = loop
                if type == "Nested Loop", relationship == "Inner", (outerRows ?? 2) > 1 {
                    inner = loop ?? "under the inner side of a Nested Loop (once per outer row)"
                } else if relationship == "SubPlan", let name = child["Subplan Name"] as? String,
                    !Self.isHashed(name, in: node)
                {
                    inner = loop ?? "in \(name), run per row"
                }
                visit(child, loop: inner)
            }
        }
        visit(root, loop: nil)
        return found
    }

    /// The index conditions an index or bitmap scan reads its rows by (a bitmap heap scan's are its bitmap index
    /// scans').
    private static func keyConditions(of node: [String: Any]) -> [String] {
        var conditions = [node["Index Cond"] as? String].compactMap { $0 }
        for child in node["Plans"] as? [[String: Any]] ?? []
        where (child["Node Type"] as? String)?.hasPrefix("Bitmap") == true {
            conditions += keyConditions(of: child)
        }
        return conditions
    }

    /// Whether a condition of a scan names a value from outside it: a column of another table (`r.identity`: the
    /// scan's own columns are not qualified) or a parameter (`$0`), once its string literals are set aside.
    private static func dependsOnRow(_ condition: String) -> Bool {
        let bare = condition.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        return bare.contains(/[A-Za-z0-9_"]\.[A-Za-z_"]|\$[0-9]/)
    }

    /// Whether `node` runs its SubPlan `name` hashed (once, as a hash table), which EXPLAIN says only in the
    /// expression using it: `(hashed SubPlan 2)`.
    private static func isHashed(_ name: String, in node: [String: Any]) -> Bool {
        node.values.contains { value in
            guard let text = value as? String else { return false }
            return text.ranges(of: "hashed \(name)").contains { range in
                text[range.upperBound...].first?.isNumber != true
            }
        }
    }

    /// The nodes of the plan that read `table`, each as `EXPLAIN (FORMAT JSON)` writes it.
    func scans(of table: String) -> [[String: Any]] {
        var found: [[String: Any]] = []
        func visit(_ node: [String: Any]) {
            if node["Relation Name"] as? String == table { found.append(node) }
            for child in node["Plans"] as? [[String: Any]] ?? [] { visit(child) }
        }
        visit(root)
        return found
    }

    /// Every row the plan's scans of `table` read, kept or filtered out, over all their loops (an analysed plan).
    func rowsRead(of table: String) -> Double {
        scans(of: table).reduce(0.0) { total, scan in
            let rows = (scan["Actual Rows"] as? Double ?? 0) + (scan["Rows Removed by Filter"] as? Double ?? 0)
            return total + rows * (scan["Actual Loops"] as? Double ?? 1)
        }
    }

    /// The Sort nodes of the plan that sort rows read from `table` (below them): each as `EXPLAIN (FORMAT JSON)`
    /// writes it.
    func sortsOf(_ table: String) -> [[String: Any]] {
        func reads(_ node: [String: Any]) -> Bool {
            node["Relation Name"] as? String == table
                || (node["Plans"] as? [[String: Any]] ?? []).contains(where: reads)
        }
        var found: [[String: Any]] = []
        func visit(_ node: [String: Any]) {
            if (node["Node Type"] as? String)?.hasSuffix("Sort") == true, reads(node) { found.append(node) }
            for child in node["Plans"] as? [[String: Any]] ?? [] { visit(child) }
        }
        visit(root)
        return found
    }

    /// The plan as an indented outline (node, table, alias, conditions), for a failure's message.
    var outline: String {
        var lines: [String] = []
        func visit(_ node: [String: Any], depth: Int) {
            var line = String(repeating: "  ", count: depth)
            if let relationship = node["Parent Relationship"] as? String { line += "[\(relationship)] " }
            if let name = node["Subplan Name"] as? String { line += "(\(name)) " }
            line += node["Node Type"] as? String ?? "?"
            if let index = node["Index Name"] as? String { line += " using \(index)" }
            if let relation = node["Relation Name"] as? String {
                line += " on \(relation) \(node["Alias"] as? String ?? "")"
            }
            for key in ["Index Cond", "Filter", "Hash Cond", "Join Filter"] {
                if let condition = node[key] as? String { line += "  \(key): \(condition)" }
            }
            for key in ["Actual Rows", "Actual Loops", "Rows Removed by Filter"] {
                if let value = node[key] as? Double { line += "  \(key): \(value)" }
            }
            lines.append(line)
            for child in node["Plans"] as? [[String: Any]] ?? [] { visit(child, depth: depth + 1) }
        }
        visit(root, depth: 0)
        return lines.joined(separator: "\n")
    }

    /// The statement on one line, cut short: enough to find it in the store.
    var statementSummary: String {
        let words = statement.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.count > 240 ? String(words.prefix(240)) + " …" : words
    }
}
