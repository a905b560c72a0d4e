import BarkeepStore
import Foundation

/// The HTTP application until the route table is wired in: every request needs `Authorization: Bearer TOKEN` with an
/// active token (checked against the token store on the pool thread, as a line command's token is re-checked);
/// without one it is `401`; with one a project's event stream is served (`HTTPEventStreamRoute`) and every other path is
/// `404` for now. It proves the road a request takes: head checked on
/// the loop, then authentication and the answer on a pool thread with a database connection.
struct TokenGateApplication: HTTPApplication {
    /// Answers `401` without an active bearer token; with one, the event stream or `404`.
    func respond(
        to head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse {
        guard let secret = Self.bearerToken(head) else {
            return .unauthorized("this request needs Authorization: Bearer TOKEN")
        }
        guard let token = try TokenStore.authenticate(secret: secret, on: database) else {
            return .unauthorized("the token is unknown or revoked")
        }
        if let project = HTTPEventStreamRoute.project(of: head) {
            return try HTTPEventStreamRoute.respond(
                to: head, project: project, tokenName: token.name, database: database)
        }
        return .error(404, .notFound, "no such resource")
    }

    /// The token of the request's `Authorization: Bearer` field; nil when there is none, or more than one field.
    static func bearerToken(_ head: HTTPRequestHead) -> String? {
        let values = head.values(of: "authorization")
        guard values.count == 1, let value = values.first else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
