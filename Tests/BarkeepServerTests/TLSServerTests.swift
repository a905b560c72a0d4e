import BarkeepServer
import BarkeepTestSupport
import Foundation
import Testing

/// The server's TLS listener at the socket level, in process: what it does with clients that never complete a
/// handshake, and with certificates it cannot use. (Conversations over TLS are end-to-end tests, in barkeepTests.)
@Suite("Server with TLS")
struct TLSServerTests {
    @Test("plain text to a TLS listener is closed without a reply; a silent client is closed at the handshake deadline")
    func handshakeRefusals() throws {
        let certificates = try TestCertificates.make()
        let running = try RunningServer(
            tls: TLSConfiguration(
                certificateFile: certificates.certificateFile,
                keyFile: certificates.keyFile,
                handshakeTimeout: .milliseconds(300)
            )
        )
        let plain = try LineClient(port: running.port)
        #expect(try plain.request("PING") == nil)

        let silent = try LineClient(port: running.port)
        let started = ContinuousClock.now
        #expect(try silent.readLine() == nil)
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(250) && waited < .seconds(5))

        // Both are gone, the server serves on, and its Unix socket speaks plain text.
        #expect(try running.owner().request("PING") == "OK PONG")
        #expect(running.server.statistics.accepted == 3)
    }

    @Test("a TLS client that does not read its replies gets no more than a bounded backlog, then all of them in order")
    func slowReaderIsBounded() throws {
        let certificates = try TestCertificates.make()
        let bound = 64 * 1024
        let running = try RunningServer(
            maximumPendingOutput: bound,
            tls: TLSConfiguration(certificateFile: certificates.certificateFile, keyFile: certificates.keyFile)
        )
        // 4.8 MB of replies, more than the kernel's socket buffers hold: the client keeps sending without reading
        // until the server's own bound acted, then reads every reply.
        let count = 600_000
        let client = try TLSLineClient(port: running.port, caFile: certificates.caFile, receiveBuffer: 1024)
        let lines = try client.exchange(Array(String(repeating: "PING\n", count: count).utf8), replies: count) {
            running.server.statistics.peakPendingOutput >= bound
        }
        #expect(lines.count == count)
        #expect(lines.allSatisfy { $0 == "OK PONG" })
        let peak = running.server.statistics.peakPendingOutput
        #expect(peak >= bound && peak < bound + 64, "peak pending output \(peak)")
    }

    @Test("a TLS client's close_notify ends its requests: what it sent is answered, then the connection ends")
    func closeNotifyIsHalfClose() throws {
        let certificates = try TestCertificates.make()
        let running = try RunningServer(
            tls: TLSConfiguration(certificateFile: certificates.certificateFile, keyFile: certificates.keyFile)
        )
        let client = try TLSLineClient(port: running.port, caFile: certificates.caFile)
        // Sent, then close_notify, before anything is read: the replies still come, then the end.
        try client.send("PING\nPING\n")
        try client.finishSending()
        #expect(try client.exchange([], replies: 3) { true } == ["OK PONG", "OK PONG"])
    }

    @Test("certificate files that cannot be used fail the server's creation, saying why")
    func unusableFiles() throws {
        let certificates = try TestCertificates.make()
        let otherKey = certificates.directory + "/other-ca.key"
        _ = try certificates.makeOtherCA()
        let cases: [(TLSConfiguration, String)] = [
            (
                TLSConfiguration(certificateFile: certificates.directory + "/none.pem", keyFile: certificates.keyFile),
                "cannot read the certificate \(certificates.directory)/none.pem: No such file or directory"
            ),
            (
                TLSConfiguration(certificateFile: certificates.certificateFile, keyFile: certificates.directory + "/x"),
                "cannot read the key \(certificates.directory)/x: No such file or directory"
            ),
            (
                TLSConfiguration(certificateFile: certificates.keyFile, keyFile: certificates.keyFile),
                "cannot use the certificate in \(certificates.keyFile): it is not PEM"
            ),
            (
                TLSConfiguration(certificateFile: certificates.certificateFile, keyFile: otherKey),
                "does not match the certificate"
            ),
        ]
        for (configuration, message) in cases {
            let error = #expect(throws: ServerError.self) { try configuration.validate() }
            #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
            #expect(throws: ServerError.self) { try RunningServer(tls: configuration) }
        }
        let expiry = try TLSConfiguration(
            certificateFile: certificates.certificateFile, keyFile: certificates.keyFile
        ).validate()
        #expect(!expiry.hasExpired && expiry.notAfter.hasSuffix("GMT"))
    }
}
