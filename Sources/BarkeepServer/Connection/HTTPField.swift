/// One header field of a response.
struct HTTPField: Equatable, Sendable {
    /// Its name, as written.
    var name: String
    /// Its value (CR and LF are dropped when it is written).
    var value: String
}
