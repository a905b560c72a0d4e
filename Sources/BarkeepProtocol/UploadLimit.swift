/// How large an upload (`INGEST`'s payload) may be: each server has its limit, and says it in its `HELLO` reply so
/// that a client can refuse a larger file before reading it.
public enum UploadLimit {
    /// The limit of a server not told otherwise (`barkeepd --max-upload`): 256 MiB.
    public static let defaultBytes = 256 << 20

    /// The key of the `HELLO` reply that holds the server's limit, in bytes.
    public static let helloKey = "max-upload"
}
