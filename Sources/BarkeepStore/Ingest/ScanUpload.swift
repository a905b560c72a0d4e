import Synchronization

/// The bytes of one uploaded document on their way into `Ingestor`, which lets go of them as soon as they are parsed:
/// a large upload's buffer is freed then, and not when whoever received it lets go of its closure, so that the memory
/// the ingest gives back to the system afterwards (`FreedMemory`) includes it.
///
/// Thread-safety: the bytes are behind a `Mutex`; the parse takes them on another thread than the ingest's.
public final class ScanUpload: Sendable {
    /// The upload's size in bytes, kept once the bytes are taken.
    public let count: Int
    private let bytes: Mutex<[UInt8]>

    /// An upload of `bytes`. The caller should hold no other reference to them, or they outlive the parse.
    public init(_ bytes: [UInt8]) {
        count = bytes.count
        self.bytes = Mutex(bytes)
    }

    /// Calls `body` with the bytes, which the upload keeps.
    func withBytes<Result: Sendable>(_ body: ([UInt8]) -> Result) -> Result {
        bytes.withLock { body($0) }
    }

    /// The bytes, which the upload no longer holds: empty once taken.
    func take() -> [UInt8] {
        bytes.withLock { held in
            let taken = held
            held = []
            return taken
        }
    }
}
