import BarkeepAPI
import BarkeepCore
import BarkeepReport
import BarkeepWeb
import Foundation
import Testing

@Suite struct PagesTests {
    @Test func theHostileSnippetIsTextOnEveryPage() throws {
        for (name, html) in try WebFixtures.pages() {
            #expect(!html.contains("<img src=x"), "\(name) holds the snippet as markup")
            #expect(!html.lowercased().contains("onerror=alert(1)>"), "\(name) holds the snippet unescaped")
            // The only images are screenshots, the only scripts the deferred app.js.
            #expect(WebFixtures.count("<img", in: html) == WebFixtures.count("<img class=\"screenshot\"", in: html))
            #expect(
                WebFixtures.count("<script", in: html)
                    == WebFixtures.count("<script defer src=\"/static/app.", in: html))
            #expect(!html.unicodeScalars.contains { $0.value == 0x202E }, "\(name) holds a bidi override")
        }
        let screen = try #require(try WebFixtures.pages().first { $0.name == "screen" }).html
        #expect(WebFixtures.count("&lt;img src=x onerror=alert(1)&gt;", in: screen) >= 3)
    }

    @Test func everyPageIsOneDocumentWithoutInlineStyleOrScript() throws {
        for (name, html) in try WebFixtures.pages() {
            #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">"), "\(name)")
            #expect(!html.contains("style="), "\(name) has a style attribute")
            #expect(!html.contains("<style"), "\(name) has a style element")
            #expect(WebFixtures.count("<h1", in: html) == 1, "\(name) has not one h1")
            #expect(WebFixtures.count("<main", in: html) == 1, "\(name)")
            #expect(html.contains("<link rel=\"stylesheet\" href=\"/static/app."), "\(name)")
            #expect(html.range(of: #" on[a-z]+=""#, options: .regularExpression) == nil, "\(name) has a handler")
            #expect(!html.contains("http://") && !html.contains("https://"), "\(name) names an outside origin")
        }
    }

    @Test func everyWriteFormCarriesTheCSRFToken() throws {
        let field = "<input type=\"hidden\" name=\"csrf\" value=\"\(WebFixtures.csrf)\">"
        var writeForms = 0
        for (name, html) in try WebFixtures.pages() where name != "signin" {
            #expect(html.contains("<meta name=\"csrf-token\" content=\"\(WebFixtures.csrf)\">"), "\(name)")
            for form in WebFixtures.forms(html) where form.contains("method=\"post\"") {
                writeForms += 1
                #expect(form.contains(field), "a form of \(name) lacks the CSRF field: \(form.prefix(120))")
            }
        }
        // Sign-out on each of 7 pages, the bulk form, the finding's status and comment forms, the confirm form, the
        // screen's step form.
        #expect(writeForms == 12)
    }

    @Test func readersSeeNoTriageForm() throws {
        for (name, html) in try WebFixtures.pages(role: .reader) where name != "signin" {
            let writes = WebFixtures.forms(html).filter { $0.contains("method=\"post\"") && !$0.contains("/signout") }
            #expect(name == "preview" || writes.isEmpty, "\(name) shows a reader a write form")
        }
    }

    @Test func theHooksOfTheBrowserTestsArePresent() throws {
        let pages = Dictionary(try WebFixtures.pages().map { ($0.name, $0.html) }, uniquingKeysWith: { a, _ in a })
        let overview = try #require(pages["overview"])
        #expect(overview.contains("<table id=\"screens\" class=\"sortable\">"))
        #expect(overview.contains("<tr data-screen=\"inbox\" data-owner=\"lee&lt;img"))
        #expect(overview.contains("<tr data-screen=\"settings\" data-owner=\"kim\" data-state=\"done\""))
        #expect(overview.contains("<svg id=\"burndown\""))
        #expect(overview.contains("run 1&lt;img src=x"))
        #expect(
            overview.contains(
                "<main id=\"main\" tabindex=\"-1\" data-live=\"/api/v1/projects/Demo%20App/events/stream\""))
        #expect(overview.contains("<p id=\"live\" aria-live=\"polite\"></p>"))
        #expect(overview.contains("UIHingeState&lt;img"))
        let findings = try #require(pages["findings"])
        #expect(findings.contains("<table id=\"findings\" class=\"sortable\">"))
        #expect(findings.contains("<tr data-finding=\"1\""))
        #expect(findings.contains("<td class=\"status\"><span class=\"warn\">○ proposed</span></td>"))
        #expect(findings.contains("<form id=\"bulk\""))
        #expect(findings.contains("<div id=\"bulk-preview\" role=\"region\" aria-live=\"polite\""))
        #expect(findings.contains("/projects/Demo%20App/findings?severity=critical%2Cmedium&amp;owner=%3Cimg"))
        #expect(findings.contains("after=2\" rel=\"next\">Next page</a>"))
        let screen = try #require(pages["screen"])
        #expect(screen.contains("<td class=\"pose bad\" data-pose=\"P3\" data-result=\"failed\">"))
        #expect(
            screen.contains("<td class=\"pose ok\" data-pose=\"P1\" data-result=\"passed\"><span class=\"ok\">✓ passed")
        )
        #expect(
            screen.contains(
                "<img class=\"screenshot\" src=\"/api/v1/screenshots/\(WebFixtures.screenshotHash)\" alt=\"Screenshot of inbox in P3, failed\" loading=\"lazy\">"
            ))
        #expect(screen.contains("<time datetime=\"2026-12-04T16:05:07Z\">2026-12-04 16:05 UTC</time>"))
        #expect(screen.contains("data-step=\"1\" data-state=\"todo\""))
        #expect(screen.contains("2 findings need work &lt;img"))
        let poses = try #require(pages["poses"])
        #expect(poses.contains("<table id=\"pose-matrix\">"))
        #expect(poses.contains("data-pose=\"P3\">— not required</td>"))
        #expect(
            poses.contains("<a href=\"/api/v1/screenshots/\(WebFixtures.screenshotHash)\" class=\"screenshot-link\">"))
        let signIn = try #require(pages["signin"])
        #expect(signIn.contains("<form id=\"signin\" class=\"stack\" method=\"post\" action=\"/signin\">"))
        #expect(
            signIn.contains(
                "<label for=\"token\">API token</label><input type=\"password\" id=\"token\" name=\"token\""))
        #expect(signIn.contains("name=\"next\" value=\"/projects/x?&lt;img"))
        let preview = try #require(pages["preview"])
        #expect(preview.contains("<tr data-finding=\"2\" data-change=\"refused\">"))
        #expect(preview.contains("Confirm: set 1 to approved"))
    }

    /// A page of several: "First page" and "Next page" keep the filters (and `after=`), and the bulk form names the
    /// numbers shown, not the filters, so its write reaches no finding the page did not show; the whole list in one
    /// page: no link, and the bulk form acts by the filters (`where=yes`), as its preview's Confirm does.
    @Test func findingsPagesLinkOnAndTheBulkFormActsOnWhatIsShown() throws {
        let project = "Demo App"
        let filters = FindingFilters(keywords: [("severity", "high")])
        let rows = [WebFixtures.finding(7, screen: "inbox"), WebFixtures.finding(9, screen: "row")]
        let context = WebFixtures.context(url: PageRoutes.findings(project))
        let middle = FindingsPage.render(rows, filters: filters, after: 3, next: 9, context: context)
        #expect(middle.contains("<a href=\"/projects/Demo%20App/findings?severity=high\">First page</a>"))
        #expect(
            middle.contains("href=\"/projects/Demo%20App/findings?severity=high&amp;after=9\" rel=\"next\">Next page"))
        let bulk = try #require(WebFixtures.forms(middle).first { $0.contains("id=\"bulk\"") })
        #expect(bulk.contains("name=\"number\" value=\"7,9\""), "\(bulk)")
        #expect(!bulk.contains("name=\"where\"") && !bulk.contains("name=\"severity\""), "\(bulk)")
        #expect(middle.contains("Set the status of every finding shown (2)"))

        let whole = FindingsPage.render(rows, filters: filters, next: nil, context: context)
        #expect(!whole.contains("Next page") && !whole.contains("First page"))
        let wholeBulk = try #require(WebFixtures.forms(whole).first { $0.contains("id=\"bulk\"") })
        #expect(
            wholeBulk.contains("name=\"where\" value=\"yes\"") && wholeBulk.contains("name=\"severity\" value=\"high\"")
        )
        #expect(!wholeBulk.contains("name=\"number\""))

        // The preview's Confirm posts the same selection it previewed.
        let preview = BulkPreview.render(
            WebFixtures.bulkReply(), newStatus: "approved", reason: nil, selection: .numbers([7, 9]), context: context)
        let confirm = try #require(WebFixtures.forms(preview).first { $0.contains("id=\"bulk-confirm\"") })
        #expect(confirm.contains("name=\"number\" value=\"7,9\"") && !confirm.contains("name=\"where\""))
        // The last page of several: "First page", no "Next page"; an empty page: no bulk form.
        let last = FindingsPage.render(rows, filters: filters, after: 3, next: nil, context: context)
        #expect(last.contains(">First page</a>") && !last.contains("Next page"))
        let empty = FindingsPage.render([], filters: filters, after: 9, next: nil, context: context)
        #expect(!empty.contains("id=\"bulk\"") && empty.contains("No finding matches these filters after #9."))
    }

    @Test func everyTableHasACaptionAndScopedHeadersAndEveryControlALabel() throws {
        for (name, html) in try WebFixtures.pages() {
            #expect(WebFixtures.count("<table", in: html) == WebFixtures.count("<caption", in: html), "\(name)")
            #expect(
                WebFixtures.count("<th", in: html) == WebFixtures.count("<th scope=", in: html)
                    + WebFixtures.count("<thead", in: html), "\(name)")
            let controls = [
                "<select", "<textarea", "<input type=\"text\"", "<input type=\"search\"", "<input type=\"password\"",
            ]
            for control in controls {
                // Each labelled control sits inside a label, or has one by id (the sign-in form).
                let inLabel = WebFixtures.count("<label>", in: html) + WebFixtures.count("<label for=", in: html)
                #expect(WebFixtures.count(control, in: html) <= inLabel, "\(name): \(control) without label")
            }
        }
    }

    @Test func theLastScanSaysWhatItChanged() throws {
        var status = try WebFixtures.status()
        status.scan = ScanSummary(
            run: 7, tool: "duo_scan", ingested: Date(timeIntervalSince1970: 1_800_000_000), new: 2, fixed: 1,
            reopened: 0, unchanged: 10, moved: 3, renamed: 1, changed: 4)
        let context = WebFixtures.context(url: PageRoutes.project("Demo App"), part: .main)
        let html = OverviewPage.render(status: status, blocked: [], burndown: [], context: context)
        #expect(
            html.contains(
                "<dt>Changes</dt><dd>2 new, 1 fixed, 0 reopened, 10 unchanged, 3 moved, 1 in renamed files, 4 changed</dd>"
            ), "\(html)")
        status.scan?.renamed = 0
        let withoutRenames = OverviewPage.render(status: status, blocked: [], burndown: [], context: context)
        #expect(withoutRenames.contains("3 moved, 4 changed</dd>"))
    }

    @Test("the totals count a component's findings once, however many screens count them in their rows")
    func theTotalsCountASharedComponentOnce() throws {
        // A component with a high and a medium finding, used by both screens; inbox has a high finding of its own.
        var parts = StatusParts()
        parts.project.name = "Demo App"
        parts.project.sdk = "26.0"
        parts.project.deploymentTarget = "17.0"
        parts.totals.needsWork = 3
        parts.totals.needsWorkBySeverity = Severity.allCases.map { [.high: 2, .medium: 1][$0] ?? 0 }
        parts.screens = [("inbox", 2), ("feed", 1)].map { key, high in
            var screen = StatusScreenPart()
            screen.key = key
            screen.work.needsWork = Severity.allCases.map { [.high: high, .medium: 1][$0] ?? 0 }
            return screen
        }
        let context = WebFixtures.context(url: PageRoutes.project("Demo App"), part: .main)
        let html = OverviewPage.render(
            status: try ProjectStatusReply(parts), blocked: [], burndown: [], context: context)
        #expect(html.contains("<dt>Needing work</dt><dd>3 findings</dd>"), "\(html)")
        // The screens' rows add up to 3 high and 2 medium: the component's two findings count under each screen.
        #expect(html.contains("<dt>By severity</dt><dd>2 high, 1 medium</dd>"), "\(html)")
        #expect(html.contains("<td data-sort=\"3\">2 high, 1 medium</td>"), "\(html)")
        #expect(html.contains("<td data-sort=\"2\">1 high, 1 medium</td>"), "\(html)")
        // From a server that does not send the counts by severity, the page says nothing rather than the rows' sum.
        parts.totals.needsWorkBySeverity = Array(repeating: nil, count: Severity.allCases.count)
        let older = OverviewPage.render(
            status: try ProjectStatusReply(parts), blocked: [], burndown: [], context: context)
        #expect(!older.contains("By severity"))
    }

    @Test func onlyMainIsRenderedForALiveRefetch() throws {
        let context = WebFixtures.context(url: PageRoutes.project("Demo App"), part: .main)
        let html = OverviewPage.render(status: try WebFixtures.status(), blocked: [], burndown: [], context: context)
        #expect(html.hasPrefix("<main id=\"main\""))
        #expect(html.hasSuffix("</main>"))
        #expect(!html.contains("<head") && !html.contains("<header"))
    }

    @Test func theOverviewFiltersItsRowsByTheURL() throws {
        func rows(_ query: [PageURL.QueryItem]) throws -> [String] {
            let url = PageURL(PageRoutes.project("Demo App").segments, query: query)
            let html = OverviewPage.render(
                status: try WebFixtures.status(), blocked: [], burndown: [], context: WebFixtures.context(url: url))
            return ["inbox", "settings"].filter { html.contains("data-screen=\"\($0)\"") }
        }
        #expect(try rows([]) == ["inbox", "settings"])
        #expect(try rows([.init("state", "done")]) == ["settings"])
        #expect(try rows([.init("severity", "critical")]) == ["inbox"])
        #expect(try rows([.init("owner", "kim")]) == ["settings"])
        #expect(try rows([.init("severity", "low")]) == [])
    }
}
