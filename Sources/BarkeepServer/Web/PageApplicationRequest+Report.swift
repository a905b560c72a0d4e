import BarkeepHashing
import BarkeepProtocol
import BarkeepReport
import BarkeepWeb
import Foundation

extension InProcessClient: ReportSource {
    /// Runs `request` as the signed-in identity (the report's requests, in process).
    func send<R: CommandRequest>(_ request: R) throws -> R.Reply { try run(request) }
}

extension PageApplicationRequest {
    /// The readiness report of `project` (`/projects/{project}/report`): the same document `barkeep report --format
    /// html` writes, gathered through the same requests (`ReportInput.gathered`) as the signed-in identity. It is a
    /// self-contained file with one inline stylesheet and its failed poses' screenshots as `data:` images, so its
    /// policy allows exactly that stylesheet by its SHA-256, and `data:` images, and nothing else inline.
    func report(_ project: String) throws -> HTTPResponse {
        do {
            let input = try ReportInput.gathered(project: project, from: client, embeddingScreenshots: true)
            let html = ReadinessReport.html(input, selection: ReportSelection(), now: Date())
            var fields: [HTTPField] = []
            if let style = Self.inlineStylesheet(of: html) {
                fields.append(
                    HTTPField(
                        name: "Content-Security-Policy",
                        value: PageSecurity.policy(
                            styleSource: "'sha256-\(Self.base64SHA256(of: style))'", imageSource: "'self' data:")))
            }
            return PageApplication.html(200, html, fields: fields)
        } catch let error as ReportError {
            return failure(500, "The report could not be made: \(error.description)")
        } catch {
            return try failure(for: error)
        }
    }

    /// The text of the document's one `<style>` element, as the browser hashes it.
    static func inlineStylesheet(of html: String) -> String? {
        guard let open = html.range(of: "<style>"),
            let close = html.range(of: "</style>", range: open.upperBound..<html.endIndex)
        else { return nil }
        return String(html[open.upperBound..<close.lowerBound])
    }

    /// The base64 SHA-256 of `text`'s UTF-8 bytes, as a policy's `'sha256-…'` source names it.
    static func base64SHA256(of text: String) -> String {
        Data(SHA256Digest.bytes(of: Array(text.utf8))).base64EncodedString()
    }
}
