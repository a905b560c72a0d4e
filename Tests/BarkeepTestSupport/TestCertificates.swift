import Foundation

/// A private CA and certificates it signed, made with the `openssl` command at test time in a temporary directory:
/// what an operator would make for a TLS daemon, and nothing checked in that could expire.
public struct TestCertificates: Sendable {
    /// The CA's certificate (PEM): what a client passes with `--ca`.
    public let caFile: String
    /// The server's certificate, signed by the CA, for `subjectAltName` IP:127.0.0.1 and DNS:localhost.
    public let certificateFile: String
    /// The server certificate's private key.
    public let keyFile: String
    /// The directory holding them, for more.
    public let directory: String

    /// Makes a CA (`openssl req -x509`) and a server certificate it signs (`openssl req` for a CSR, then
    /// `openssl x509 -req`) whose names are `names` (subjectAltName entries).
    public static func make(names: String = "IP:127.0.0.1,DNS:localhost") throws -> TestCertificates {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-tls")
        let ca = try makeCA(in: directory, name: "ca")
        let (certificate, key) = try makeServerCertificate(in: directory, name: "server", names: names, signedBy: ca)
        return TestCertificates(
            caFile: ca.certificate, certificateFile: certificate, keyFile: key, directory: directory)
    }

    /// Another CA, unrelated to this one: certificates it trusts are not this server's.
    public func makeOtherCA() throws -> String {
        try Self.makeCA(in: directory, name: "other-ca").certificate
    }

    /// Another server certificate signed by this CA, for `names`, with its own key: (certificate, key).
    public func makeServerCertificate(names: String, name: String) throws -> (String, String) {
        try Self.makeServerCertificate(
            in: directory,
            name: name,
            names: names,
            signedBy: (caFile, directory + "/ca.key")
        )
    }

    private static func makeCA(in directory: String, name: String) throws -> (certificate: String, key: String) {
        let certificate = directory + "/\(name).pem"
        let key = directory + "/\(name).key"
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=Barkeep test \(name)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        return (certificate, key)
    }

    private static func makeServerCertificate(
        in directory: String,
        name: String,
        names: String,
        signedBy ca: (certificate: String, key: String)
    ) throws -> (String, String) {
        let certificate = directory + "/\(name).pem"
        let key = directory + "/\(name).key"
        let request = directory + "/\(name).csr"
        let extensions = directory + "/\(name).ext"
        try openssl([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", request, "-subj", "/CN=barkeepd",
        ])
        try """
        subjectAltName=\(names)
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=serverAuth

        """.write(toFile: extensions, atomically: true, encoding: .utf8)
        try openssl([
            "x509", "-req", "-in", request, "-CA", ca.certificate, "-CAkey", ca.key, "-CAcreateserial",
            "-out", certificate, "-days", "2", "-extfile", extensions,
        ])
        return (certificate, key)
    }

    private static func openssl(_ arguments: [String]) throws {
        let path = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let path else {
            throw TestSupportError("the openssl command is missing: install it (apt-get install openssl, or make deps)")
        }
        let result = try Subprocess.run(path, arguments, timeout: .seconds(30))
        guard result.status == 0 else {
            throw TestSupportError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(result.error)")
        }
    }
}
