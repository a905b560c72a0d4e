import BarkeepCore
import Foundation

extension Logger {
    /// A logger writing to standard error, one `write` per line so lines from different threads never interleave.
    ///
    /// Core's `Logger` only formats; the executables, which own the standard streams, give it this sink.
    public convenience init(level: LogLevel) {
        self.init(level: level, fields: [], clock: { Date() }) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
