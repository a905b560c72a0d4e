import BarkeepWeb
import Testing

@Suite struct HTMLTests {
    @Test func textAndAttributeValuesAreEscaped() {
        let html = HTML.element(
            "td", [HTMLAttribute("title", "\"><script>x</script>")], [.text("<img src=x onerror=alert(1)> & 'q'")])
        #expect(
            html.markup
                == "<td title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\">&lt;img src=x onerror=alert(1)&gt; &amp; &#39;q&#39;</td>"
        )
    }

    @Test func controlsAndBidiOverridesAreNeutralised() {
        let markup = HTML.text("a\u{202E}b\u{1B}[31mc\u{2066}").markup
        #expect(!markup.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B || $0.value == 0x2066 })
        #expect(markup.contains("U+202E"))
    }

    @Test func voidElementsHaveNoEndTagAndFlagsNoValue() {
        let html = HTML.element("input", [HTMLAttribute("type", "checkbox"), .flag("checked")], [.text("lost")])
        #expect(html.markup == "<input type=\"checkbox\" checked>")
    }

    @Test(arguments: [
        (PageURL(["projects", "My App", "screens", "a/b?c#d"]), "/projects/My%20App/screens/a%2Fb%3Fc%23d"),
        (PageURL(["projects", "..", "."]), "/projects/%2E%2E/%2E"),
        (PageURL([]), "/"),
        (PageURL(["f"], query: [.init("owner", "a&b=c"), .init("x", "é ")]), "/f?owner=a%26b%3Dc&x=%C3%A9%20"),
        (PageURL.fragment("main"), "#main"),
    ])
    func pageURLsEncodeEverySegmentAndValue(url: PageURL, text: String) {
        #expect(url.text == text)
    }

    @Test func hrefsOfHostileValuesStayInTheirAttribute() {
        let link = HTML.element(
            "a", [.href(PageURL(["projects", "\"><script>alert(1)</script>"], query: [.init("q", "javascript:x")]))],
            text: "x")
        #expect(
            link.markup == "<a href=\"/projects/%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E?q=javascript%3Ax\">x</a>")
    }

    @Test func settingAQueryValueReplacesIt() {
        let url = PageURL(["p"], query: [.init("sort", "a"), .init("owner", "x")]).setting("sort", to: "b")
        #expect(url.text == "/p?owner=x&sort=b")
        #expect(url.setting("owner", to: nil).text == "/p?sort=b")
        #expect(url.value(of: "sort") == "b")
    }
}
