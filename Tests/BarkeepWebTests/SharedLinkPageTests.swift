import BarkeepWeb
import Testing

/// The page a link from another site gets without its SameSite=Strict cookie: only a cross-site navigation gets it,
/// and it reloads only a path of this site.
@Suite struct SharedLinkPageTests {
    @Test func onlyACrossSiteNavigationIsReloaded() {
        #expect(SharedLinkPage.applies(fetchSite: "cross-site", fetchMode: "navigate"))
        #expect(SharedLinkPage.applies(fetchSite: "Cross-Site", fetchMode: nil))
        // The reload itself is same-origin: without a session it goes to the sign-in form, so nothing loops.
        #expect(!SharedLinkPage.applies(fetchSite: "same-origin", fetchMode: "navigate"))
        #expect(!SharedLinkPage.applies(fetchSite: "none", fetchMode: "navigate"))
        #expect(!SharedLinkPage.applies(fetchSite: nil, fetchMode: nil))
        // A cross-site subresource or fetch is no link a person followed.
        #expect(!SharedLinkPage.applies(fetchSite: "cross-site", fetchMode: "no-cors"))
    }

    @Test func theReloadStaysOnThisSiteAndRunsNoScript() {
        let target = PageURL(
            ["projects", "app", "findings"],
            query: [PageURL.QueryItem("rule", "DUO001"), PageURL.QueryItem("x", "\"><b>")])
        let page = SharedLinkPage.render(target: target, assets: WebFixtures.assets)
        #expect(page.contains("content=\"0; url=/projects/app/findings?rule=DUO001&amp;x=%22%3E%3Cb%3E\""))
        #expect(page.contains("href=\"/projects/app/findings?rule=DUO001&amp;x=%22%3E%3Cb%3E\""))
        #expect(!page.contains("<b>"))
        // An empty first segment (a target of //host/…) never makes a URL of another host.
        let other = SharedLinkPage.render(target: PageURL(["", "evil.example", "x"]), assets: WebFixtures.assets)
        #expect(other.contains("content=\"0; url=/evil.example/x\"") && !other.contains("//evil"))
        #expect(
            WebFixtures.count("<script", in: page) == WebFixtures.count("<script defer src=\"/static/app.", in: page))
    }
}
