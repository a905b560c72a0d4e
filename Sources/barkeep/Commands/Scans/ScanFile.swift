import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The file `barkeep ingest` and MCP's `ingest_scan` upload, refused before any byte of it is read when it cannot
/// be sent: it is not a regular file (a FIFO, a device such as `/dev/zero`, a directory), the connection's role may
/// not ingest, or it is larger than the daemon's upload limit. It is then read with a bounded read (a file can grow
/// after it was measured; standard input has no size), so that memory never holds more than the limit.
///
/// The order is the one `IngestCommand.upload` follows: `open` (refuses what is not a regular file, at once and
/// without the daemon), `checkRole` and `checkSize` against what the daemon's `HELLO` said, then `read`.
final class ScanFile {
    /// The path as given; `-` for standard input.
    let path: String
    /// The open descriptor.
    private let descriptor: Int32
    /// Whether `descriptor` is this object's to close (standard input is not).
    private let isOwned: Bool
    /// The file's size when it was opened; nil for standard input, which has none until it ends.
    let size: Int?

    private init(path: String, descriptor: Int32, isOwned: Bool, size: Int?) {
        self.path = path
        self.descriptor = descriptor
        self.isOwned = isOwned
        self.size = size
    }

    deinit {
        if isOwned { close(descriptor) }
    }

    /// Standard input (`barkeep ingest PROJECT -`): read up to the limit like a file, however long it runs.
    static func standardInput() -> ScanFile {
        ScanFile(path: "-", descriptor: STDIN_FILENO, isOwned: false, size: nil)
    }

    /// Opens `path` without waiting (a FIFO opened for reading would wait for a writer) and refuses at once what is
    /// not a regular file: `cannot read PATH: REASON` with the system's reason (`No such file or directory`, `Is a
    /// directory`) or the kind of file it is (`not a regular file but a character device`).
    static func open(_ path: String) throws(CLIError) -> ScanFile {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw failure(path, errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw failure(path, code)
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            if type == S_IFDIR { throw failure(path, EISDIR) }
            throw CLIError.badInput("cannot read \(path): not a regular file but \(kind(of: type))")
        }
        // Reads of a regular file never wait, but say so: what follows reads it in the usual blocking way.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return ScanFile(path: path, descriptor: descriptor, isOwned: true, size: Int(status.st_size))
    }

    /// Refuses the upload unless the role the daemon's `HELLO` answered (`greeting`) may ingest: before a byte
    /// of the file is read, `FORBIDDEN` for a reader, `NOAUTH` for a connection with no role (`hasToken`: whether a
    /// token was given, else the refusal says how to give one).
    static func checkRole(_ greeting: Greeting?, hasToken: Bool) throws(CLIError) {
        let needed = Role.leastToIngest
        guard let role = greeting?.grantedRole else {
            throw .refused(
                .noAuth, "INGEST needs a token" + (hasToken ? "" : ": pass --token or set BARKEEP_TOKEN"))
        }
        guard role >= needed else {
            throw .refused(
                .forbidden,
                "INGEST needs the \(needed.rawValue) role (this token is a \(role.rawValue)'s): the "
                    + "file was not read")
        }
    }

    /// The `--max-upload BYTES` an upload command was given (`BYTES` may end in KiB, MiB or GiB); nil when not
    /// given. Anything but a positive size is a usage error.
    static func maximumUpload(_ parsed: ParsedCommand) throws(UsageError) -> Int? {
        guard let text = parsed.value("max-upload") else { return nil }
        guard let bytes = QuantityText.bytes(text), bytes > 0 else {
            throw UsageError(
                "--max-upload must be a size in bytes (or with KiB, MiB, GiB), not \(ValueExcerpt.quoted(text))",
                commandPath: parsed.commandPath)
        }
        return bytes
    }

    /// The upload limit to check against: the daemon's (its `HELLO` says it), lowered to `override`
    /// (`--max-upload`) when that is smaller; a daemon that does not say is taken to have `override`, else the
    /// default limit.
    static func limit(override: Int?, greeting: Greeting?) -> Int {
        guard let daemons = greeting?.maximumUpload else {
            return override ?? UploadLimit.defaultBytes
        }
        return min(daemons, override ?? daemons)
    }

    /// The file as messages name it.
    private var name: String { path == "-" ? "standard input" : path }

    /// Refuses a file larger than `limit` before reading it (`TOOLONG`, as the daemon would answer its upload).
    func checkSize(limit: Int) throws(CLIError) {
        guard let size, size > limit else { return }
        throw .refused(
            .tooLong, "\(name) is \(Self.describe(size)), more than the upload limit of \(Self.describe(limit))")
    }

    /// The bytes of the file: at most `limit`, or `TOOLONG` without reading further. One buffer of the file's size
    /// (growing only if the file grows meanwhile), so that a 76 MB scan is not copied again each time an array of
    /// chunks doubles.
    func read(limit: Int) throws(CLIError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: min(max(size ?? 0, 1 << 16), limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else {
                    throw .refused(.tooLong, "\(name) holds more than the upload limit of \(Self.describe(limit))")
                }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - count))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if read == 0 {
                bytes.removeSubrange(count...)
                return bytes
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw Self.failure(name, errno)
            }
            count += read
        }
    }

    /// `cannot read PATH: REASON`, the system's reason for `code`.
    private static func failure(_ path: String, _ code: Int32) -> CLIError {
        CLIError.badInput("cannot read \(path): \(String(cString: strerror(code)))")
    }

    /// What a file of type `type` (`st_mode & S_IFMT`) is, in words.
    private static func kind(of type: mode_t) -> String {
        switch type {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// A size as the refusals say it: `300 MiB (314572800 bytes)`.
    static func describe(_ bytes: Int) -> String {
        let mebibytes = Double(bytes) / Double(1 << 20)
        let rounded = mebibytes >= 10 ? String(Int(mebibytes.rounded())) : String(format: "%.1f", mebibytes)
        return "\(rounded) MiB (\(bytes) bytes)"
    }
}
