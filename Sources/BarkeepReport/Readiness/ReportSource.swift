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

    /// Fetches the uploaded screenshots of the failed poses, in the pose matrix's order, until the next would pass
    /// `ScreenshotLimit.reportEmbeddedBytes` in all; one that cannot be fetched (too large to send inline, or
    /// deleted since) is left out and counted, as is every one past the budget. The report still names each.
    mutating func embedScreenshots(from source: some ReportSource) {
        var names: [String] = []
        for cell in poses where cell.result.result == .failed {
            guard let name = cell.screenshot, PoseRecording.uploadedScreenshotHash(name) != nil,
                !names.contains(name)
            else { continue }
            names.append(name)
        }
        var total = 0
        for name in names {
            guard total < ScreenshotLimit.reportEmbeddedBytes,
                let reply = try? source.send(ScreenshotGetRequest(screenshot: name)),
                total + reply.summary.size <= ScreenshotLimit.reportEmbeddedBytes
            else {
                screenshotsLeftOut += 1
                continue
            }
            total += reply.summary.size
            screenshots[name] = EmbeddedScreenshot(reply.summary)
        }
    }
}
