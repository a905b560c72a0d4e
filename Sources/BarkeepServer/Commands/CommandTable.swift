import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// One command of the protocol: its name, what arguments it takes, the least role that may run it, and its
/// handler. Declared once; the table checks every request against it before the handler runs.
public final class Command: Sendable {
    /// The verb, or verb and subverb (`PROJECT CREATE`), upper case.
    public let name: String
    /// The accepted number of positional arguments (the upload size, for commands with a payload, included).
    public let positional: ClosedRange<Int>
    /// The keys it accepts.
    public let keys: Set<String>
    /// The keys it requires.
    public let requiredKeys: Set<String>
    /// The keys that may be given more than once (`path=A path=B`); every other key at most once.
    public let repeatableKeys: Set<String>
    /// What its leading positional arguments name, checked by the table before any lookup (an over-long name is
    /// `BADARG`, never `NOTFOUND`); arguments past the list are the handler's to check.
    public let arguments: [ArgumentKind]
    /// The least role that may run it; nil for commands anyone may send (PING, QUIT, HELLO).
    public let minimumRole: Role?
    /// Whether the request line ends with a byte count and a payload follows it.
    public let takesPayload: Bool
    /// Which limit bounds its payload.
    public let payloadLimit: PayloadLimit
    /// Decides what to do. Runs on the event loop thread: it must not block (database work goes in
    /// `CommandAction.database`).
    public let handler: @Sendable (CommandInput) throws(CommandError) -> CommandAction
    /// For a command that takes no arguments, needs no role and always answers the same (PING): its encoded reply,
    /// which the server sends straight from the request's bytes, allocating nothing.
    public let constantReply: [UInt8]?
    /// The request type the command is declared by (issue 26's spec); nil for a command not yet converted.
    public let request: (any CommandRequest.Type)?
    /// Whether a streaming replica may serve it (`CommandSpec.readsReplica`; false for a command without a spec).
    public let readsReplica: Bool
    /// Whether it is a write for the daemon's presence (`CommandSpec.writes`; true for a command without a spec).
    public let writes: Bool
    /// Whether its handler may answer with a kept reply (`CommandAction.keptReply`): the connection then keeps that
    /// reply for the request's exact line, and sends it again while what it was checked against holds.
    public let keepsReplies: Bool

    /// Declares a command. Its first positional argument names a project unless `arguments` says otherwise.
    public init(
        _ name: String,
        positional: ClosedRange<Int> = 0...0,
        arguments: [ArgumentKind] = [.project],
        keys: Set<String> = [],
        requiredKeys: Set<String> = [],
        repeatableKeys: Set<String> = [],
        minimumRole: Role?,
        takesPayload: Bool = false,
        payloadLimit: PayloadLimit = .upload,
        request: (any CommandRequest.Type)? = nil,
        keepsReplies: Bool = false,
        handler: @escaping @Sendable (CommandInput) throws(CommandError) -> CommandAction
    ) {
        self.name = name.uppercased()
        self.positional = positional
        self.arguments = arguments
        self.keys = keys.union(requiredKeys).union(repeatableKeys)
        self.requiredKeys = requiredKeys
        self.repeatableKeys = repeatableKeys
        self.minimumRole = minimumRole
        self.takesPayload = takesPayload
        self.payloadLimit = payloadLimit
        self.handler = handler
        self.constantReply = nil
        self.request = request
        readsReplica = request?.spec.readsReplica ?? false
        writes = request?.spec.writes ?? true
        self.keepsReplies = keepsReplies
    }

    /// Declares the command `R` specifies: its name, arity, argument kinds, keys and role come from `R`'s spec and
    /// fields; the request is decoded into an `R` (a bad value refused with `BADARG`, naming its field) before
    /// `handler` runs. `payloadLimit` says which limit bounds an upload's size; `keepsReplies`, whether the handler
    /// may answer with a kept reply.
    public convenience init<R: CommandRequest>(
        _ type: R.Type,
        payloadLimit: PayloadLimit = .upload,
        keepsReplies: Bool = false,
        handler: @escaping @Sendable (R, CommandInput) throws(CommandError) -> CommandAction
    ) {
        self.init(
            R.spec.name, positional: R.positionalRange, arguments: R.argumentKinds, keys: R.keys,
            requiredKeys: R.requiredKeys, repeatableKeys: R.repeatableKeys, minimumRole: R.spec.role,
            takesPayload: R.spec.payload, payloadLimit: payloadLimit, request: R.self, keepsReplies: keepsReplies
        ) { [decoder = RequestDecoder<R>()] input throws(CommandError) in
            let request: R
            do throws(FieldProblem) {
                request = try decoder.decode(input.request)
            } catch {
                throw CommandError(.badArgument, error.message, key: error.key.isEmpty ? nil : error.key)
            }
            return try handler(request, input)
        }
    }

    /// Declares the command `R` specifies, which takes nothing, needs no role and always answers `reply`.
    public convenience init<R: CommandRequest>(_ type: R.Type, constantReply reply: R.Reply) {
        self.init(R.spec.name, constantReply: reply.reply(version: ProtocolVersion.current), request: R.self)
    }

    /// Declares a command that takes nothing, needs no role and always answers `reply`.
    public init(_ name: String, constantReply reply: Reply, request: (any CommandRequest.Type)? = nil) {
        self.name = name.uppercased()
        positional = 0...0
        arguments = []
        keys = []
        requiredKeys = []
        repeatableKeys = []
        minimumRole = nil
        takesPayload = false
        payloadLimit = .upload
        self.request = request
        readsReplica = false
        writes = false
        keepsReplies = false
        var bytes: [UInt8] = []
        reply.encode(into: &bytes)
        constantReply = bytes
        // Encoded once: a request that reaches the handler (a quoted `"PING"`) is answered with the same bytes.
        handler = { [encoded = Reply.bytes(bytes)] _ in .done(CommandResult(encoded)) }
    }

}

/// The one place that decides whether a request may run: unknown commands, wrong arguments and missing roles
/// are refused here, before any handler sees the request.
public struct CommandTable: Sendable {
    /// What a verb names: a command, or a group of two-word commands keyed by subverb. One lookup per request.
    private enum Entry {
        case command(Command)
        case group([String: Command])
    }

    /// The entries by the first byte of their verb (its low five bits; upper-case letters each have their own): a
    /// request's verb is compared with the few verbs of its bucket, which for verbs of up to 15 bytes (a string kept
    /// inline) compares two words — cheaper than hashing it for a dictionary.
    private var buckets: [[(verb: String, entry: Entry)]] = Array(repeating: [], count: 32)

    private static func bucket(of verb: String) -> Int { Int(verb.utf8.first ?? 0) & 31 }

    /// What `verb` names; nil when nothing.
    private func entry(_ verb: String) -> Entry? {
        // By index: a loop over the bucket's elements would copy each (a retain of its entry) to compare its verb.
        let bucket = Self.bucket(of: verb)
        for index in buckets[bucket].indices where buckets[bucket][index].verb == verb {
            return buckets[bucket][index].entry
        }
        return nil
    }

    private mutating func setEntry(_ entry: Entry, for verb: String) {
        let bucket = Self.bucket(of: verb)
        buckets[bucket].removeAll { $0.verb == verb }
        buckets[bucket].append((verb, entry))
    }

    /// Every command of the table, by name: what docs/protocol.md's command table is checked against.
    public var commands: [Command] {
        buckets.joined().map(\.entry).flatMap { entry -> [Command] in
            switch entry {
            case .command(let command): [command]
            case .group(let group): Array(group.values)
            }
        }.sorted { $0.name < $1.name }
    }

    /// Creates a table holding `commands`.
    public init(_ commands: [Command]) {
        for command in commands { add(command) }
    }

    /// Commands answered from their bytes alone: name (upper case, ASCII) and encoded reply.
    private var constants: [(name: [UInt8], reply: [UInt8])] = [] {
        didSet {
            constantInitials = 0
            for constant in constants { constantInitials |= Self.initialBit(constant.name.first ?? 0) }
        }
    }

    /// The first letters of the constant commands' names, one bit each (`initialBit`): a line starting with any other
    /// byte (a quote, or another command's letter) is no constant command, known without a look at the names.
    private var constantInitials: UInt32 = 0

    /// The bit of a name's first byte in `constantInitials`: its low five bits, which a letter shares with its other
    /// case (every other byte is refused a full comparison later).
    private static func initialBit(_ byte: UInt8) -> UInt32 { 1 << UInt32(byte & 31) }

    /// The encoded reply when `line` is exactly a constant command (any case, surrounding blanks allowed).
    func constantReply(for line: ArraySlice<UInt8>) -> [UInt8]? {
        guard line.count <= 32 else { return nil }
        var start = line.startIndex
        var end = line.endIndex
        while start < end && (line[start] == 0x20 || line[start] == 0x09) { start += 1 }
        guard start < end, constantInitials & Self.initialBit(line[start]) != 0 else { return nil }
        while end > start && (line[end - 1] == 0x20 || line[end - 1] == 0x09) { end -= 1 }
        let word = line[start..<end]
        for index in constants.indices where constants[index].name.count == word.count {
            // ASCII upper-casing: clearing bit 5 of a letter.
            if zip(constants[index].name, word).allSatisfy({
                $0 == ($1 >= 0x61 && $1 <= 0x7A ? $1 & 0xDF : $1)
            }) {
                return constants[index].reply
            }
        }
        return nil
    }

    private mutating func add(_ command: Command) {
        constants.removeAll { $0.name == Array(command.name.utf8) }
        if let reply = command.constantReply { constants.append((Array(command.name.utf8), reply)) }
        let words = command.name.split(separator: " ").map(String.init)
        guard words.count == 2 else {
            setEntry(.command(command), for: command.name)
            return
        }
        var group: [String: Command] = [:]
        if case .group(let existing) = entry(words[0]) { group = existing }
        group[words[1]] = command
        setEntry(.group(group), for: words[0])
    }

    /// The commands every server answers without a database: `PING` and `QUIT`.
    public static let basic = CommandTable([
        Command(PingRequest.self, constantReply: PingRequest.Reply()),
        Command(QuitRequest.self) { _, input in
            var result = CommandResult(QuitRequest.Reply(), version: input.session.protocolVersion)
            result.closesConnection = true
            return .done(result)
        },
    ])

    /// The limit bounding the upload of the command `name` (upper case); nil when it takes none or is not here.
    public func payloadLimit(of name: String) -> PayloadLimit? {
        commands.first { $0.name == name && $0.takesPayload }?.payloadLimit
    }

    /// A table with these commands added (replacing any of the same name).
    public func adding(_ more: [Command]) -> CommandTable {
        var table = self
        for command in more { table.add(command) }
        return table
    }

    /// Why a request was refused, and whether a payload announced on its line must still be skipped.
    public struct Refusal: Error, Sendable, Equatable {
        /// The error reply.
        public var reply: Reply
        /// Bytes of payload to read and discard before the next request (0 when none).
        public var payloadToDiscard: Int
        /// The connection cannot stay in step (a payload of unknown size): close after the reply.
        public var closesConnection: Bool
    }

    /// A request that passed every check.
    public struct Resolved: Sendable {
        /// The command to run.
        public var command: Command
        /// The request, the subverb removed.
        public var request: Request
        /// The size of the payload that follows, for commands that take one.
        public var payloadSize: Int?

        /// The handler's input: the request with its upload, from `session` (the one it was resolved for), run by
        /// `server`. The session is not kept here: a resolved request moves several times on its way to its handler.
        public consuming func input(payload: [UInt8]?, session: Session, server: Server) -> CommandInput {
            CommandInput(request: request, session: session, payload: payload, server: server)
        }
    }

    /// Checks `request` against the table, in the order the protocol states: the command, its arguments, the
    /// role. `maximumPayload` bounds uploads, `maximumScreenshot` screenshots (`PayloadLimit`).
    public func resolve(
        _ request: consuming Request, session: Session, maximumPayload: Int,
        maximumScreenshot: Int = ScreenshotLimit.defaultBytes
    ) -> Result<Resolved, Refusal> {
        var name = request.verb
        let found: Command?
        switch entry(name) {
        case .command(let command): found = command
        case .group(let group):
            guard let subverb = request.arguments.first else {
                let names = group.keys.sorted().joined(separator: ", ")
                return .failure(refusal(.badArgument, "\(name) needs a subcommand (\(names))"))
            }
            name += " " + subverb.uppercased()
            request.arguments.removeFirst()
            found = group[subverb.uppercased()]
        case nil: found = nil
        }
        guard let command = found else {
            return .failure(refusal(.unknown, "unknown command \(ValueExcerpt.quoted(name))"))
        }

        // An upload's size comes first: every later refusal must still skip its payload.
        var payloadSize: Int?
        if command.takesPayload {
            guard let last = request.arguments.last, last.allSatisfy(\.isASCII), last.allSatisfy(\.isNumber),
                let size = Int(last)
            else {
                var refused = refusal(.badArgument, "\(name) ends with the payload's size in bytes")
                refused.closesConnection = true
                return .failure(refused)
            }
            let (maximum, what) =
                command.payloadLimit == .screenshot ? (maximumScreenshot, "screenshot") : (maximumPayload, "payload")
            if size > maximum {
                var refused = refusal(.tooLong, "\(what) of \(size) bytes is over the limit of \(maximum)")
                refused.payloadToDiscard = size
                return .failure(refused)
            }
            payloadSize = size
        }
        func fail(_ code: ErrorCode, _ message: String) -> Result<Resolved, Refusal> {
            var refused = refusal(code, message)
            refused.payloadToDiscard = payloadSize ?? 0
            return .failure(refused)
        }

        if !command.positional.contains(request.arguments.count) {
            let range = command.positional
            let expected =
                range.upperBound == 0
                ? "no arguments"
                : range.lowerBound == range.upperBound
                    ? "\(range.lowerBound) argument\(range.lowerBound == 1 ? "" : "s")"
                    : "\(range.lowerBound) to \(range.upperBound) arguments"
            return fail(.badArgument, "\(name) takes \(expected), got \(request.arguments.count)")
        }
        for (kind, argument) in zip(command.arguments, request.arguments) {
            if let problem = kind.problem(with: argument) { return fail(.badArgument, problem) }
        }
        var seen: Set<String> = []
        for (key, _) in request.keywordList {
            guard command.keys.contains(key) else {
                let known = command.keys.isEmpty ? "none" : command.keys.sorted().joined(separator: ", ")
                return fail(.badArgument, "\(name) takes no key \(ValueExcerpt.quoted(key)) (keys: \(known))")
            }
            guard seen.insert(key).inserted || command.repeatableKeys.contains(key) else {
                return fail(.badArgument, "key \(ValueExcerpt.quoted(key)) given twice")
            }
        }
        if !command.requiredKeys.isEmpty, let missing = command.requiredKeys.subtracting(seen).sorted().first {
            return fail(.badArgument, "\(name) needs \(missing)=…")
        }
        if let needed = command.minimumRole {
            guard let role = session.role else {
                return fail(
                    .noAuth,
                    "\(name) needs a token" + (session.isLocal ? "" : ": send HELLO token=… first")
                )
            }
            guard role >= needed else { return fail(.forbidden, "\(name) needs the \(needed.rawValue) role") }
        }
        return .success(
            Resolved(command: command, request: request, payloadSize: payloadSize)
        )
    }

    private func refusal(_ code: ErrorCode, _ message: String) -> Refusal {
        Refusal(reply: .error(code, message), payloadToDiscard: 0, closesConnection: false)
    }
}
