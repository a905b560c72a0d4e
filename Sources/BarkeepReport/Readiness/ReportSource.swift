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
    /// report's requests are made, for the CLI and the web page alike. `embeddingScreenshots` (the HTML report)
    /// also fetches the screenshots of the failed poses (SCREENSHOT GET), up to `ScreenshotLimit.reportEmbeddedBytes`.
    public static func gathered(
        project: String, from source: some ReportSource, embeddingScreenshots: Bool = false
    ) throws -> ReportInput {
        let status = try source.send(StatusRequest(project: project)).parts
        var filters = FindingFilters()
        filters.status = FindingQuery.allWord
        let findings = try source.send(FindingsRequest(project: project, filters: filters)).rows
        let poses = try source.send(PosesRequest(project: project)).rows
        let steps = try source.send(StepsRequest(project: project)).rows
        let burndown = try source.send(BurndownRequest(project: project, granularity: .run)).rows.map(\.point)
        let screens = try source.send(ScreenListRequest(project: project)).rows
        var input = try ReportInput(
            status: status, findings: findings, poses: poses, steps: steps, burndown: burndown, screens: screens)
        if embeddingScreenshots { input.embedScreenshots(from: source) }
        return input
    }

    /// Fetches the uploaded screenshots of the failed poses, in the pose matrix's order, until one would pass
    /// `ScreenshotLimit.reportEmbeddedBytes` in all: that one and the rest are left out and counted, the rest never
    /// fetched. One that cannot be fetched (too large to send inline, deleted since, or the daemon busy) is left out
    /// and counted too. The report still names each.
    mutating func embedScreenshots(from source: some ReportSource) {
        var names: [String] = []
        var seen: Set<String> = []
        for cell in poses where cell.result.result == .failed {
            guard let name = cell.screenshot, PoseRecording.uploadedScreenshotHash(name) != nil,
                seen.insert(name).inserted
            else { continue }
            names.append(name)
        }
        var total = 0
        for (index, name) in names.enumerated() {
            guard let reply = try? source.send(ScreenshotGetRequest(screenshot: name)) else {
                screenshotsLeftOut += 1
                continue
            }
            guard total + reply.summary.size <= ScreenshotLimit.reportEmbeddedBytes else {
                // The budget is spent: the rest are named only, never fetched to be thrown away.
                screenshotsLeftOut += names.count - index
                return
            }
            total += reply.summary.size
            screenshots[name] = EmbeddedScreenshot(reply.summary)
        }
    }
}
