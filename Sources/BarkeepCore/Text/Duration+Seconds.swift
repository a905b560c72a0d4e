extension Duration {
    /// The duration in seconds as a `Double`, for APIs that take a `TimeInterval`.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in milliseconds as a `Double`.
    public var milliseconds: Double { seconds * 1000 }
}
