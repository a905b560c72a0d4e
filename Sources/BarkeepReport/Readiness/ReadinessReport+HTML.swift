import BarkeepAPI
import BarkeepCore
import Foundation

extension ReadinessReport {
    /// The report of `selection` as one self-contained HTML file: inline `<style>`, no script, font or link to anything outside it,
    /// written as well-formed XHTML (every element closed, attributes quoted, text escaped) so XML tools read it too.
    /// It holds two inline SVGs: the pose matrix (`id="pose-matrix"`) and the burndown (`id="burndown"`, the same
    /// drawing as `BurndownChart.svg` without the XML declaration and the namespace, which HTML implies).
    public static func html(_ input: ReportInput, selection: ReportSelection = .wholeProject, now: Date) -> String {
        let content = ReportContent(input, selection: selection, now: now)
        let escape = Escaping.html
        var out: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\"/>",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
            "<title>\(escape(content.title))</title>",
            "<style>",
            stylesheet + swatchRules,
            "</style>",
            "</head>",
            "<body>",
            "<h1>\(escape(content.title))</h1>",
            factList(content.header, className: "facts"),
            "<h2 id=\"summary\">Summary</h2>",
            factList(content.summary, className: "summary"),
            table(
                ["Tier", "What it covers", "Findings needing work"],
                content.tierRows.map { ["\($0.tier)", escape($0.name), "\($0.findings)"] }),
            table(
                ["Step", "What it asks", "Screens done"],
                content.stepRows.map { row in
                    [
                        "\(row.step.number) \(inline(.stepKey(row.step.key)))", escape(row.step.asks),
                        stepCount(row),
                    ]
                }),
            "<h3>Poses</h3>",
            "<p class=\"legend\">"
                + PoseMatrix.results.map { result in
                    "<span class=\"swatch \(swatchClass(result))\"></span>"
                        + PoseMatrix.label(result)
                }.joined(separator: " ") + "</p>",
            PoseMatrix.svg(
                screens: content.screens, cells: content.poses, required: input.status.project.requiredPoses,
                escape: escape),
            "<h3>Burndown</h3>",
            BurndownChart.svgElement(
                input.burndown, title: "Burndown — \(input.status.project.name)", namespace: false, escape: escape),
        ]
        if !content.stillReported.isEmpty {
            out.append(
                "<h2 id=\"\(ReportContent.stillReportedAnchor)\">\(escape(ReportContent.stillReportedTitle))</h2>")
            out.append("<p class=\"warning\">\(escape(stillReportedIntroduction))</p>")
            out.append(
                table(
                    stillReportedHeaders,
                    content.stillReported.map { item in
                        [
                            escape(item.id), escape(item.screen), inline(item.finding), inline(item.what),
                            "<span class=\"warning\">\(escape(item.status))</span>",
                        ]
                    }))
        }
        out.append("<h2 id=\"recommendations\">\(ReportContent.recommendationsTitle)</h2>")
        out.append("<p>\(escape(overview(content)))</p>")
        for recommendation in content.recommendations {
            out.append("<section class=\"recommendation\">")
            out.append("<h3>\(escape(recommendation.screen))</h3>")
            out.append(
                "<p class=\"verdict\"><strong>Left:</strong> \(verdict(recommendation.verdict).map(inline).joined())</p>"
            )
            let guidance = guidance(recommendation)
            if !guidance.isEmpty { out.append("<p>\(escape(guidance))</p>") }
            if !recommendation.items.isEmpty {
                out.append(
                    table(
                        itemHeaders,
                        recommendation.items.map { item in
                            [
                                escape(item.label), "\(item.tier)", inline(item.finding), inline(item.what),
                                escape(item.sdk), statusCell(item.status),
                            ]
                        }))
            }
            if !recommendation.failedPoses.isEmpty {
                out.append("<p>\(failedPosesIntroduction)</p>")
                out.append(
                    table(
                        failedPoseHeaders,
                        recommendation.failedPoses.map { failed in
                            [
                                escape(failed.pose), screenshotCell(failed, screen: recommendation, input: input),
                                escape(failed.finding ?? "—"),
                            ]
                        }))
            }
            out.append("</section>")
        }
        for (title, lines, className) in [
            (ReportContent.toVerifyTitle, content.toVerify, "to-verify"),
            (ReportContent.readyTitle, content.ready, "ready"),
        ] where !lines.isEmpty {
            out.append("<h3>\(escape(title))</h3>")
            out.append(
                "<ul class=\"\(className)\">\n"
                    + lines.map { "<li>\(screenLine($0).map(inline).joined())</li>\n" }.joined() + "</ul>")
        }
        for section in content.settled {
            out.append("<h2 id=\"\(section.anchor)\">\(escape(section.title))</h2>")
            guard !section.items.isEmpty else {
                out.append("<p class=\"empty\">\(escape(section.emptyText))</p>")
                continue
            }
            out.append(
                table(
                    settledHeaders,
                    section.items.map { item in
                        [
                            escape(item.id), escape(item.screen), inline(item.finding), inline(item.what),
                            escape(item.reason ?? "—"),
                        ]
                    }))
        }
        out.append("<h2 id=\"not-verified\">\(ReportContent.notVerifiedTitle)</h2>")
        switch notVerifiedText(content.notVerified) {
        case .paragraph(let text): out.append("<p class=\"empty\">\(escape(text))</p>")
        case .lines(let lines):
            out.append("<ul class=\"not-verified\">\n" + lines.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>")
        }
        if input.screenshotsLeftOut > 0 {
            out.append("<p class=\"empty\">\(escape(screenshotsLeftOutText(input.screenshotsLeftOut)))</p>")
        }
        out += ["</body>", "</html>"]
        return out.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined()
    }

    // MARK: - HTML building blocks

    /// The legend swatch's class of a result (a class, not a `style` attribute: the web page's policy allows the one
    /// stylesheet by its hash, and no hash covers attributes).
    static func swatchClass(_ cell: PoseCellResult) -> String {
        "swatch-" + (cell.result?.rawValue ?? PoseCellResult.noneWord).replacingOccurrences(of: "_", with: "-")
    }

    /// The swatches' colours, one rule a result, from the pose matrix's colours.
    static var swatchRules: String {
        PoseMatrix.results.map { "\n.legend .\(swatchClass($0)) { background: \(PoseMatrix.color($0)); }" }.joined()
    }

    private static let stylesheet = """
        body { font: 15px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1d1d1f;
          max-width: 1100px; margin: 2em auto; padding: 0 1em; }
        h1 { font-size: 1.7em; margin-bottom: 0.3em; }
        h2 { border-bottom: 1px solid #d2d2d7; padding-bottom: 0.2em; margin-top: 2em; }
        ul.facts, ul.summary { list-style: none; padding: 0; }
        table { border-collapse: collapse; margin: 0.6em 0 1.2em; width: 100%; }
        th, td { border: 1px solid #d2d2d7; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
        th { background: #f5f5f7; }
        code { font: 13px ui-monospace, Menlo, Consolas, monospace; background: #f5f5f7; padding: 0 0.2em;
          white-space: pre-wrap; word-break: break-all; }
        code.step { white-space: nowrap; word-break: normal; overflow-wrap: normal; }
        .done { color: #2e7d32; font-weight: bold; }
        .blocked, .warning { color: #c62828; }
        .empty { color: #6e6e73; }
        .legend .swatch { display: inline-block; width: 0.9em; height: 0.9em; margin: 0 0.3em 0 0.8em;
          vertical-align: -0.1em; }
        svg { display: block; margin: 0.5em 0 1em; max-width: 100%; height: auto; }
        img.shot { display: block; max-width: 12em; max-height: 20em; width: auto; height: auto; margin-bottom: 0.3em; }
        """

    private static func factList(_ facts: [ReportContent.Fact], className: String) -> String {
        "<ul class=\"\(className)\">\n"
            + facts.map { fact in
                "<li><strong>\(Escaping.html(fact.label)):</strong> \(fact.value.map(inline).joined())</li>\n"
            }.joined() + "</ul>"
    }

    private static func inline(_ piece: Inline) -> String {
        switch piece {
        case .text(let text): Escaping.html(text)
        case .code(let code): "<code>\(Escaping.html(code))</code>"
        case .stepKey(let key): "<code class=\"step\">\(Escaping.html(key))</code>"
        }
    }

    private static func statusCell(_ status: String) -> String {
        switch status {
        case ReportContent.statusText(.verified): "<span class=\"done\">\(Escaping.html(status))</span>"
        case ReportContent.statusText(.blocked): "<span class=\"blocked\">\(Escaping.html(status))</span>"
        default: Escaping.html(status)
        }
    }

    /// What the report says of the failed poses' screenshots it does not embed.
    static func screenshotsLeftOutText(_ count: Int) -> String {
        let megabytes = ScreenshotLimit.reportEmbeddedBytes >> 20
        return (count == 1 ? "1 failed pose's screenshot is" : "\(count) failed poses' screenshots are")
            + " named but not embedded: past the report's \(megabytes) MiB of images, too large to send inline, or"
            + " deleted. Signed-in readers see each on its screen's page."
    }

    /// A failed pose's screenshot: the image itself when the input embeds it (its size as attributes, so the page
    /// does not jump), and always its name.
    private static func screenshotCell(
        _ failed: ReportContent.FailedPose, screen: ReportContent.Recommendation, input: ReportInput
    ) -> String {
        guard let name = failed.screenshot else { return "—" }
        let code = "<code>\(Escaping.html(name))</code>"
        guard let image = input.screenshots[name] else { return code }
        let alt = "Screenshot of \(failed.pose) failing on \(screen.screen)"
        return "<img class=\"shot\" src=\"\(image.dataURI)\" width=\"\(image.width)\" height=\"\(image.height)\" "
            + "alt=\"\(Escaping.html(alt))\"/><br/>\(code)"
    }

    /// A table; cells are already escaped HTML.
    private static func table(_ headers: [String], _ rows: [[String]]) -> String {
        var lines = [
            "<table>", "<thead><tr>" + headers.map { "<th>\(Escaping.html($0))</th>" }.joined() + "</tr></thead>",
        ]
        lines.append("<tbody>")
        lines += rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }
        lines.append("</tbody>")
        lines.append("</table>")
        return lines.joined(separator: "\n")
    }
}
