/// Whether the body of a request may be read, as the application judges its head before any byte of the body is read
/// (`HTTPMachine.Action.authorize`, docs/design/web-dashboard.md, section 1): refused (no or a dead token, a route that
/// does not exist) or admitted up to its route's limit. A client that waits on `Expect: 100-continue` is invited to
/// send its body only once admitted, and a body over the limit is refused unread.
enum HTTPAdmission: Equatable, Sendable {
    /// The body may be read when it is at most `limit` bytes; a longer one is answered `tooLarge`, unread.
    case body(limit: Int, tooLarge: HTTPResponse)
    /// The request is answered `response` without its body being read.
    case refused(HTTPResponse)
}
