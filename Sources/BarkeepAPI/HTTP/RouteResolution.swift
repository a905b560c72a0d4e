import BarkeepProtocol

/// What the route table makes of an HTTP API request.
public enum RouteResolution: Sendable {
    /// A command's request: `request` is the line the CLI would send, for `CommandTable.resolve` and the command's
    /// handler, as the line protocol runs it.
    case command(any CommandRequest.Type, Request)
    /// `GET /api/v1/openapi.json`: the API's OpenAPI document (`OpenAPI.document`), no authentication needed.
    case openAPIDocument
    /// Refused before any command runs.
    case refused(APIRefusal)
}
