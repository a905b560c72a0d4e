import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation
import Testing

@testable import BarkeepReport

/// The HTML report's screenshot budget: the failed poses' uploads are fetched in the matrix's order until the next
/// would pass `ScreenshotLimit.reportEmbeddedBytes`; the rest, and any that cannot be fetched, are counted.
@Suite struct EmbeddedScreenshotsTests {
    /// A source that answers SCREENSHOT GET with a screenshot of `sizes[name]` bytes (no real bytes: the budget
    /// counts the size the daemon states), and refuses a name it does not know.
    struct Screenshots: ReportSource {
        var sizes: [String: Int]

        struct Gone: Error {}

        func send<R: CommandRequest>(_ request: R) throws -> R.Reply {
            guard let get = request as? ScreenshotGetRequest, let size = sizes[get.screenshot] else { throw Gone() }
            var content = ScreenshotContent()
            content.sha256 = String(get.screenshot.dropFirst(PoseRecording.uploadedScreenshotPrefix.count))
            content.width = 390
            content.height = 844
            content.size = size
            content.data = "AAAA"
            guard let reply = ScreenshotGetRequest.Reply(content) as? R.Reply else { throw Gone() }
            return reply
        }
    }

    static func name(_ digit: Character) -> String {
        PoseRecording.uploadedScreenshot(String(repeating: digit, count: 64))
    }

    @Test func theBudgetStopsAtFiftyMebibytesAndCountsTheRest() throws {
        var input = try Fixtures.input
        let (a, b, c, gone) = (Self.name("a"), Self.name("b"), Self.name("c"), Self.name("d"))
        input.poses = [
            Fixtures.cell("Inbox", "P1", .failed, screenshot: a, finding: 1),
            Fixtures.cell("Inbox", "P2", .failed, screenshot: b, finding: 1),
            // The same upload named twice is fetched once.
            Fixtures.cell("Inbox", "P3", .failed, screenshot: a, finding: 1),
            Fixtures.cell("Inbox", "P4", .failed, screenshot: gone, finding: 1),
            Fixtures.cell("Inbox", "P5", .failed, screenshot: c, finding: 1),
            // Not failed, or a path from before uploads: never fetched.
            Fixtures.cell("Inbox", "P6", .passed, screenshot: Self.name("e")),
            Fixtures.cell("Inbox", "P7", .failed, screenshot: "shots/p7.png", finding: 1),
        ]
        let budget = ScreenshotLimit.reportEmbeddedBytes
        #expect(budget == 50 << 20)
        // A fits; the upload that is gone is counted and passed; c fills the budget exactly; b does not fit, and
        // then nothing more is fetched.
        var fetched = Screenshots(sizes: [a: 30 << 20, c: budget - (30 << 20), b: 1])
        input.poses.swapAt(1, 4)  // c before b: a, c, a again, gone, b
        input.embedScreenshots(from: fetched)
        #expect(Set(input.screenshots.keys) == [a, c])
        #expect(input.screenshotsLeftOut == 2)
        // With the budget spent at b, b and everything after it are counted, and none fetched.
        var spent = try Fixtures.input
        spent.poses = [
            Fixtures.cell("Inbox", "P1", .failed, screenshot: a, finding: 1),
            Fixtures.cell("Inbox", "P2", .failed, screenshot: b, finding: 1),
            Fixtures.cell("Inbox", "P3", .failed, screenshot: c, finding: 1),
        ]
        fetched = Screenshots(sizes: [a: 30 << 20, b: 30 << 20, c: 1])
        spent.embedScreenshots(from: fetched)
        #expect(Set(spent.screenshots.keys) == [a] && spent.screenshotsLeftOut == 2)
        let html = ReadinessReport.html(input, now: Fixtures.now)
        #expect(html.contains("src=\"data:image/png;base64,AAAA\" width=\"390\" height=\"844\""))
        #expect(html.contains(Escaping.html(ReadinessReport.screenshotsLeftOutText(2))))
    }
}
