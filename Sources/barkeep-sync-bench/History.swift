import BarkeepBenchSupport
import BarkeepCore
import BarkeepStore
import Foundation

/// One sync of `--history` and the project after it.
struct HistorySample {
    var sync: Int
    var syncTime: Double
    var statusTime: Double
    var databaseBytes: Int64
    var eventRows: Int64
    var eventBytes: Int64
    var writes: SyncWrites
}

/// `--history`: an audit that ages. A project of `findings` findings (AgingAudit), then `syncs` daily syncs with the
/// churn of a real history and a little triage between them (a few proposed findings approved or declined, as
/// `FINDING SET` does), autovacuum as the cluster is configured. After each sync: the STATUS read of the project
/// (StatusStore.status, what STATUS answers from), the database's size, and the events table's rows and size. Prints
/// a row at syncs 10, 100, 1,000 and the last; writes the curve to `svg` when given.
func history(findings: Int, syncs: Int, svg: String?, on connection: PostgresConnection) throws {
    let project = "history"
    let created = try ProjectStore.create(
        name: project, sdk: nil, deploymentTarget: nil, actor: "bench", on: connection)
    var audit = AgingAudit(findings: findings)
    let first = audit.document()
    let imported = try seconds {
        _ = try ScanStore.ingest(
            benchRequest(first, project: project), parsing: { try DuoScanParser.parseTable(first) }, on: connection)
    }
    print(String(format: "history: %d findings, first import %.2fs; %d daily syncs", findings, imported, syncs))
    print("sync     sync (median of last 5)  STATUS     database    events rows  events size  what the sync wrote")
    var samples: [HistorySample] = []
    let marks = Set([10, 100, 1_000, syncs])
    for sync in 1...syncs {
        try triage(project: project, projectID: created.id, day: sync, on: connection)
        audit.advance()
        let document = audit.document()
        let before = try SyncWrites.reading(connection)
        var result: IngestResult?
        let time = try seconds {
            result = try ScanStore.ingest(
                benchRequest(document, project: project), parsing: { try DuoScanParser.parseTable(document) },
                on: connection)
        }
        let writes = try SyncWrites.reading(connection).since(before)
        let counted = result.map { $0.counts.eventText } ?? "nothing"
        let status = try seconds { _ = try StatusStore.status(project: project, on: connection) }
        guard
            let row = try connection.query(
                """
                SELECT pg_database_size(current_database()), (SELECT count(*) FROM events),
                       pg_total_relation_size('events')
                """
            ).first
        else { throw StoreError.invalid("the size query answered no row") }
        samples.append(
            HistorySample(
                sync: sync, syncTime: time, statusTime: status, databaseBytes: try row.decode(at: 0),
                eventRows: try row.decode(at: 1), eventBytes: try row.decode(at: 2), writes: writes))
        if marks.contains(sync) {
            let recent = samples.suffix(5).map(\.syncTime).sorted()
            let last = samples[samples.count - 1]
            print(
                String(
                    format: "%-8d %10.1f ms %17.1f ms %7.1f MiB %12lld %8.1f MiB  ", sync,
                    recent[recent.count / 2] * 1e3,
                    status * 1e3, Double(last.databaseBytes) / 1_048_576, last.eventRows,
                    Double(last.eventBytes) / 1_048_576) + writes.text)
            let churn = audit.churn
            print(
                "         the scan: new \(churn.new), fixed \(churn.fixed), reopened \(churn.reopened), "
                    + "moved \(churn.moved), changed \(churn.changed); the sync counted \(counted)")
            fflush(nil)
        }
    }
    if let svg { try Data(historyChart(samples).utf8).write(to: URL(fileURLWithPath: svg)) }
}

/// A little triage between syncs: on each day two proposed findings approved and, every third day, one declined
/// with a reason, chosen from the day's number.
private func triage(project: String, projectID: Int64, day: Int, on connection: PostgresConnection) throws {
    let proposed = try connection.query(
        "SELECT number FROM findings WHERE project_id = $1 AND status = $2 ORDER BY number LIMIT 3 OFFSET $3",
        [projectID, FindingStatus.proposed.rawValue, day * 7 % 500]
    ).map { try $0.decode(at: 0, as: Int.self) }
    for (index, number) in proposed.enumerated() where index < 2 || day % 3 == 0 {
        let declines = index == 2
        _ = try FindingStore.setStatus(
            project: project, number: number, to: declines ? .declined : .approved,
            reason: declines ? "the design keeps this bar" : nil, role: .admin, actor: "bench", on: connection)
    }
}

/// The curve as an SVG line chart: sizes (database, events) above, times (sync, STATUS) below, against the sync
/// number on a logarithmic axis.
func historyChart(_ samples: [HistorySample]) -> String {
    // `gap` between the panels leaves room for the upper one's axis labels above the lower one's title.
    let (width, panel, left, top, gap) = (720.0, 200.0, 70.0, 30.0, 50.0)
    let height = top + 2 * panel + gap + 40
    let plotWidth = width - left - 150
    let last = Double(samples.last?.sync ?? 1)
    func x(_ sync: Int) -> Double { left + plotWidth * log10(Double(sync)) / max(log10(last), 1) }
    var svg =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
        + " font-family=\"sans-serif\" font-size=\"11\">\n"
    let panels:
        [(title: String, unit: String, series: [(name: String, color: String, value: (HistorySample) -> Double)])] = [
            (
                "Size", "MiB",
                [
                    ("database", "#1f77b4", { Double($0.databaseBytes) / 1_048_576 }),
                    ("events table", "#ff7f0e", { Double($0.eventBytes) / 1_048_576 }),
                ]
            ),
            (
                "Time", "ms",
                [("sync", "#2ca02c", { $0.syncTime * 1e3 }), ("STATUS", "#d62728", { $0.statusTime * 1e3 })]
            ),
        ]
    for (position, chart) in panels.enumerated() {
        let base = top + Double(position) * (panel + gap) + panel
        let highest = max(chart.series.flatMap { series in samples.map(series.value) }.max() ?? 1, 1e-9)
        func y(_ value: Double) -> Double { base - panel * value / highest }
        svg +=
            String(format: "<text x=\"%.0f\" y=\"%.0f\">", left, base - panel - 8)
            + "\(chart.title) (\(chart.unit); top \(String(format: "%.1f", highest)))</text>\n"
        svg += String(
            format: "<path d=\"M%.1f %.1f V%.1f H%.1f\" fill=\"none\" stroke=\"#888\"/>\n", left, base - panel, base,
            left + plotWidth)
        var tick = 1
        while tick <= Int(last) {
            svg += String(
                format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", x(tick), base + 14, tick)
            tick *= 10
        }
        for (index, series) in chart.series.enumerated() {
            let points = samples.map { String(format: "%.1f,%.1f", x($0.sync), y(series.value($0))) }
            svg += "<polyline fill=\"none\" stroke=\"\(series.color)\" points=\"\(points.joined(separator: " "))\"/>\n"
            svg +=
                String(
                    format: "<text x=\"%.0f\" y=\"%.0f\" ", left + plotWidth + 10,
                    base - panel + 14 + Double(index) * 16)
                + "fill=\"\(series.color)\">\(series.name)</text>\n"
        }
    }
    svg += String(
        format: "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">sync number (log)</text>\n",
        left + plotWidth / 2, height - 8)
    return svg + "</svg>\n"
}
