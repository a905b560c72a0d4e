import CBarkeepTLS

/// TLS for a server's TCP listeners: the certificate it presents and its private key. Unix sockets stay plain
/// text: they never leave the machine.
public struct TLSConfiguration: Sendable, Equatable {
    /// The server's certificate chain (PEM, the server's certificate first, then any intermediates).
    public var certificateFile: String
    /// The certificate's private key (PEM, unencrypted).
    public var keyFile: String
    /// How long a TCP client has to complete its handshake before its connection is closed.
    public var handshakeTimeout: Duration

    /// Creates a configuration.
    public init(certificateFile: String, keyFile: String, handshakeTimeout: Duration = .seconds(10)) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.handshakeTimeout = handshakeTimeout
    }

    /// Loads the certificate and the key once, to report what is wrong with them (unreadable, not PEM, a key that
    /// does not match the certificate) before anything starts; returns when the certificate expires.
    @discardableResult
    public func validate() throws(ServerError) -> CertificateExpiry {
        try ServerTLSContext(self).expiry
    }

    /// When the server's certificate stops being valid.
    public struct CertificateExpiry: Sendable, Equatable {
        /// The certificate's notAfter, as OpenSSL prints it ("Nov 29 16:54:00 2027 GMT").
        public var notAfter: String
        /// Whether that moment has passed: clients will refuse the certificate.
        public var hasExpired: Bool
    }
}

/// A loaded server certificate and key, shared by every TLS connection of one server.
///
/// `@unchecked Sendable`: the OpenSSL context is configured in `init` and never changed afterwards, and OpenSSL
/// allows sessions to be created from one context on any thread.
final class ServerTLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    let expiry: TLSConfiguration.CertificateExpiry

    init(_ configuration: TLSConfiguration) throws(ServerError) {
        var error = [CChar](repeating: 0, count: 512)
        guard
            let pointer = barkeep_tls_server_context_create(
                configuration.certificateFile, configuration.keyFile, &error, error.count)
        else {
            throw .tls(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.pointer = pointer
        var text = [CChar](repeating: 0, count: 64)
        let expired = barkeep_tls_context_certificate_expiry(pointer, &text, text.count)
        expiry = TLSConfiguration.CertificateExpiry(
            notAfter: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            hasExpired: expired == 1
        )
    }

    deinit { barkeep_tls_context_free(pointer) }
}
