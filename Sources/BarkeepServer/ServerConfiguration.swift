import BarkeepProtocol

/// What a server listens on and its limits.
public struct ServerConfiguration: Sendable {
    /// TCP and Unix socket addresses to listen on.
    public var addresses: [ServerAddress]
    /// The longest request line accepted, in bytes.
    public var maximumLineLength: Int
    /// Replies a client has not read yet, in bytes, past which the server stops reading its requests until it
    /// catches up.
    public var maximumPendingOutput: Int
    /// The uid whose Unix socket peers are admins without a token (the daemon's own).
    public var ownerUID: UInt32

    /// Creates a configuration.
    public init(
        addresses: [ServerAddress],
        maximumLineLength: Int = LineFramer.defaultMaximumLineLength,
        maximumPendingOutput: Int = 1 << 20,
        ownerUID: UInt32
    ) {
        self.addresses = addresses
        self.maximumLineLength = maximumLineLength
        self.maximumPendingOutput = maximumPendingOutput
        self.ownerUID = ownerUID
    }
}
