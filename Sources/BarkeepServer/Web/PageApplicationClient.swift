import BarkeepProtocol

/// What runs a page's typed requests as the signed-in person, on the request's own database connection: the
/// in-process client (`WebIdentity`), or a test's. A refusal is thrown as a `CommandError` (its wire code and
/// message), as the line protocol would have answered it.
protocol PageApplicationClient {
    /// The reply to `request`, run with the person's role and name.
    func send<R: CommandRequest>(_ request: R) throws -> R.Reply
}
