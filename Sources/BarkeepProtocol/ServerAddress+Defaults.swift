/// Where barkeepd serves and barkeep looks for it when neither is told: the one home of the default addresses.
extension ServerAddress {
    /// The TCP port barkeepd serves and barkeep connects to by default.
    public static let defaultPort: UInt16 = 7780

    /// The default TCP address: the loopback interface on the default port.
    public static let defaultTCP = ServerAddress.tcp(host: "127.0.0.1", port: defaultPort)

    /// The TCP port of barkeepd's HTTP listener (the web dashboard and the JSON API) by default.
    public static let defaultHTTPPort: UInt16 = 7781

    /// The default HTTP address: the loopback interface on the default HTTP port.
    public static let defaultHTTP = ServerAddress.tcp(host: "127.0.0.1", port: defaultHTTPPort)

    /// barkeepd's data directory by default, relative to the directory it starts in.
    public static let defaultDataDirectory = "./.barkeep"

    /// The name of the Unix socket barkeepd serves in its data directory.
    public static let socketName = "barkeep.sock"

    /// The Unix socket of a daemon started in the current directory with the default data directory.
    public static let defaultSocketPath = defaultDataDirectory + "/" + socketName

    /// The Unix socket barkeepd serves by default with `dataDirectory`.
    public static func socketPath(in dataDirectory: String) -> String {
        dataDirectory + "/" + socketName
    }
}
