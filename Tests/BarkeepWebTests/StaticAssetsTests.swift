import BarkeepHashing
import BarkeepWeb
import Testing

@Suite struct StaticAssetsTests {
    let assets = WebFixtures.assets

    @Test func namesCarryTheContentHash() throws {
        let css = Array(assets.stylesheet.body.utf8)
        let digest = css.withUnsafeBytes { LibcryptoHasher().digest($0) }
        #expect(assets.stylesheet.name == "app." + digest.hex.prefix(16) + ".css")
        #expect(assets.script.name.hasPrefix("app.") && assets.script.name.hasSuffix(".js"))
        #expect(assets.stylesheetURL.text == "/static/" + assets.stylesheet.name)
        #expect(assets.asset(named: assets.script.name)?.contentType.hasPrefix("text/javascript") == true)
        #expect(assets.asset(named: "app.js") == nil)
    }

    @Test func theScriptIsSmallHandWrittenAndUsesOnlyItsOrigin() {
        let script = assets.script.body
        #expect(script.split(separator: "\n", omittingEmptySubsequences: false).count < 300)
        #expect(!script.contains("http://") && !script.contains("https://"))
        #expect(!script.contains("eval(") && !script.contains("innerHTML"))
        for hook in [
            "EventSource", "X-Barkeep-Part", "Intl.DateTimeFormat", "aria-sort", "visibilitychange",
            "#bulk-preview", "dry-run", "Updated ", "150",
        ] {
            #expect(script.contains(hook), "app.js lacks \(hook)")
        }
    }

    @Test func theStylesheetHasBothSchemesAndOneColumnOnPhones() {
        let css = assets.stylesheet.body
        #expect(css.contains("@media (prefers-color-scheme: dark)"))
        #expect(css.contains("@media (max-width: 40rem)"))
        #expect(css.contains(".scroll { overflow-x: auto;"))
        #expect(!css.contains("@import") && !css.contains("url("))
    }
}
