extension ErrorCode {
    /// The HTTP status the API answers this error with (docs/design/web-dashboard.md section 3); the JSON error body
    /// carries the code itself.
    public var httpStatus: Int {
        switch self {
        case .badLine, .badArgument: 400
        case .noAuth: 401
        case .forbidden: 403
        case .notFound, .unknown: 404
        case .conflict: 409
        case .tooLong: 413
        case .busy, .unavailable: 503
        case .internal: 500
        }
    }

    /// Whether the answer carries `Retry-After: 1`: the server is saturated or its database away, not the request
    /// wrong.
    public var isRetryable: Bool { self == .busy || self == .unavailable }
}
