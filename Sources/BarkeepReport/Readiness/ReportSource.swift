import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// Where a readiness report's data comes from: the daemon over the wire (the CLI and its MCP server) or in process
/// (the daemon's web pages). Either runs a typed request and gives its typed reply, or throws.
public protocol ReportSource {
    /// Runs `request` and returns its reply.
    func send<R: CommandRequest>(_ request: R) throws -> R.Reply
}

extension ReportInput {
    /// The input of the report of `project`, read through `source`: STATUS, the findings of every status (the
    /// settled sections — verified, kept, declined, false positives — list findings that need no more work, which
    /// FINDINGS leaves out without a status), POSES, STEPS, the burndown by run and SCREEN LIST. The one place the
    /// report's requests are made, for the CLI and the web page alike.
    public static func gathered(project: String, from source: some ReportSource) throws -> ReportInput {
        let status = try source.send(StatusRequest(project: project)).parts
        var filters = FindingFilters()
        filters.status = FindingQuery.allWord
        let findings = try source.send(FindingsRequest(project: project, filters: filters)).rows
        let poses = try source.send(PosesRequest(project: project)).rows
        let steps = try source.send(StepsRequest(project: project)).rows
        let burndown = try source.send(BurndownRequest(project: project, granularity: .run)).rows.map(\.point)
        let screens = try source.send(ScreenListRequest(project: project)).rows
        return try ReportInput(
            status: status, findings: findings, poses: poses, steps: steps, burndown: burndown, screens: screens)
    }
}
