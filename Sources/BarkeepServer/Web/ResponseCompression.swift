import BarkeepCore
import CZlib

/// Pages and JSON answers sent gzip-compressed to a client that accepts it (`Accept-Encoding: gzip`): the
/// 1,000-screen overview is 369 KB of markup and 14 KB compressed (docs/performance.md, Web). Only text of at least
/// `HTTPLimit.compressedFromBytes` is compressed; images (already compressed), event streams and small answers are
/// sent as they are. Every answer that could be compressed says `Vary: Accept-Encoding`.
///
/// A whole page of a cookie session is never compressed: it carries the session's CSRF token beside text from the
/// URL, which is what a compression side channel (BREACH) needs, and a link from another site can make the browser
/// load it with the cookie (the shared-link page reloads it from this site). Its `<main>` alone, which only the
/// dashboard's own script asks for (`X-Barkeep-Part`, a field no other site can make a browser send), and answers to a
/// request that brings its own credentials (`Authorization`) are compressed. So the live refetches are, and a first
/// load is not.
enum ResponseCompression {
    /// The content types compressed: the pages, the API's JSON, the stylesheet and the script.
    static let compressedTypes = ["text/html", "application/json", "text/css", "text/javascript", "image/svg+xml"]

    /// `response` compressed for `head` when the client accepts gzip and the body is text worth compressing;
    /// otherwise `response` unchanged (with `Vary` when it is such a body).
    static func compressed(_ response: HTTPResponse, for head: HTTPRequestHead) -> HTTPResponse {
        guard response.eventStream == nil, isCompressible(response) else { return response }
        var response = response
        response.fields.append(HTTPField(name: "Vary", value: "Accept-Encoding"))
        guard response.body.count >= HTTPLimit.compressedFromBytes, acceptsGzip(head),
            !isAmbientPage(response, head),
            let body = gzip(response.body)
        else { return response }
        response.body = body
        response.fields.append(HTTPField(name: "Content-Encoding", value: "gzip"))
        return response
    }

    /// Whether the response's `Content-Type` is one of `compressedTypes` and it has no encoding yet.
    static func isCompressible(_ response: HTTPResponse) -> Bool {
        var type: String?
        for field in response.fields {
            switch field.name.lowercased() {
            case "content-encoding": return false
            case "content-type": type = field.value.split(separator: ";").first.map { $0.lowercased() }
            default: continue
            }
        }
        return type.map { compressedTypes.contains($0.trimmingCharacters(in: .whitespaces)) } ?? false
    }

    /// Whether `response` is a whole HTML page asked for with the browser's own credentials (the session cookie): not
    /// by the dashboard's script (`X-Barkeep-Part`) nor with an `Authorization` field.
    static func isAmbientPage(_ response: HTTPResponse, _ head: HTTPRequestHead) -> Bool {
        let type = response.fields.last { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
        return type.hasPrefix("text/html") && head.values(of: "x-barkeep-part").isEmpty
            && head.values(of: "authorization").isEmpty
    }

    /// Whether `Accept-Encoding` names `gzip` (or `*`) with a weight above zero.
    static func acceptsGzip(_ head: HTTPRequestHead) -> Bool {
        for value in head.values(of: "accept-encoding") {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let coding = parts.first, coding == "gzip" || coding == "*" else { continue }
                let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.map { Double($0.dropFirst(2)) ?? 0 } ?? 1
                if weight > 0 { return true }
            }
        }
        return false
    }

    /// `bytes` as a gzip member (RFC 1952) at zlib's default level; nil if zlib fails (the body is then sent as it
    /// is).
    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
        let started = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }
}
