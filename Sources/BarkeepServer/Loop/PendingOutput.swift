/// A connection machine's unwritten output, as the loop writes it out: the line protocol's and HTTP's alike.
protocol PendingOutput {
    /// Bytes not written yet.
    var pendingOutputCount: Int { get }
    /// Calls `body` with the bytes not written yet.
    func withPendingOutput<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
    /// `count` of them were written.
    mutating func written(_ count: Int)
}

extension ConnectionMachine: PendingOutput {}
extension HTTPMachine: PendingOutput {}

extension Transport {
    /// Writes what `output` holds as far as the socket takes it. Returns false when the connection is gone (closed
    /// by the peer, or failed): the caller closes it.
    func writeOut<Output: PendingOutput>(_ output: inout Output) -> Bool {
        while output.pendingOutputCount > 0 {
            let outcome = output.withPendingOutput { buffer in write(buffer.baseAddress, count: buffer.count) }
            switch outcome {
            case .done(let written) where written > 0:
                output.written(written)
            case .done, .wantWrite, .wantRead:
                // wantRead would be a TLS renegotiation, which the context refuses: in practice the socket is full.
                return true
            case .closed, .failed:
                return false
            }
        }
        return true
    }
}
