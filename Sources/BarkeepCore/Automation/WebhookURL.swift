/// Where a webhook is delivered: an `http` or `https` URL, checked and split into what an HTTP/1.1 client needs.
/// Other schemes, user names and passwords in the URL, fragments, blanks and control characters are refused, so that
/// what the daemon connects to is exactly what `hook list` shows.
public struct WebhookURL: Sendable, Equatable, CustomStringConvertible {
    /// The longest URL accepted, in bytes.
    public static let maximumLength = 2048

    /// Whether the connection is TLS (`https`), with the server's certificate verified.
    public var isTLS: Bool
    /// The host: a DNS name or an IP address (an IPv6 address without its brackets).
    public var host: String
    /// The TCP port: the URL's, or 80 / 443.
    public var port: Int
    /// The request target: the path and query, `/` when the URL has none.
    public var target: String
    /// The URL as given.
    public var description: String

    /// Parses `text`; throws `CoreError.invalidArgument` saying what is wrong.
    public init(parsing text: String) throws(CoreError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw Self.refusal("a webhook URL is at most \(Self.maximumLength) bytes")
        }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.value > 0x7E }) else {
            throw Self.refusal("a webhook URL has no blanks, control or non-ASCII characters (percent-encode them)")
        }
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            isTLS = true
            rest = text.dropFirst("https://".count)
        } else if lower.hasPrefix("http://") {
            isTLS = false
            rest = text.dropFirst("http://".count)
        } else {
            throw Self.refusal("a webhook URL starts with http:// or https://, got \(ValueExcerpt.quoted(text))")
        }
        guard !rest.contains("#") else { throw Self.refusal("a webhook URL has no fragment ('#')") }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        guard !authority.contains("@") else {
            throw Self.refusal("a webhook URL carries no user name or password; use --secret-file to sign deliveries")
        }
        var hostPart = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw Self.refusal("a webhook URL's IPv6 host lacks ']'")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw Self.refusal("a webhook URL's host is followed by ':PORT' only")
                }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw Self.refusal("a webhook URL names a host") }
        if !authority.hasPrefix("[") {
            guard hostPart.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }) else {
                throw Self.refusal(
                    "a webhook URL's host is a DNS name or an IP address, got \(ValueExcerpt.quoted(hostPart))")
            }
        }
        host = String(hostPart)
        if let portText {
            guard let port = Int(portText), (1...65_535).contains(port), portText.allSatisfy(\.isNumber) else {
                throw Self.refusal("a webhook URL's port is 1 to 65535, got \(ValueExcerpt.quoted(portText))")
            }
            self.port = port
        } else {
            port = isTLS ? 443 : 80
        }
        target = path.isEmpty ? "/" : path.hasPrefix("?") ? "/" + path : String(path)
        description = text
    }

    private static func refusal(_ problem: String) -> CoreError { .invalidArgument(key: "url", problem: problem) }

    /// The `Host` header's value: the host, bracketed when an IPv6 address, with the port when not the default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isTLS ? 443 : 80) ? name : "\(name):\(port)"
    }
}
