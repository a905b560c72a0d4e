import BarkeepCore
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `barkeep ingest PROJECT FILE|-`: uploads a scanner run and prints what it changed.
struct IngestCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "ingest",
        abstract: "Upload a scanner run (duo_scan JSON or SARIF) and sync the project's findings with it (writer).",
        discussion: """
            FILE - reads standard input. The format is guessed from the file (SARIF has "version": "2.1.0" and
            "runs") unless --format says. The same file twice is the same run and changes nothing. With --scope,
            only findings under that path prefix can be marked fixed. With --json prints exactly
            {"run":N,"new":N,"fixed":N,"reopened":N,"unchanged":N,"moved":N,"open":N}.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("file", help: "The scanner's output, or - for standard input."),
            .option("format", valueName: "FORMAT", help: "duo-scan or sarif (default: guessed)."),
            .option("commit", valueName: "SHA", help: "The commit that was scanned."),
            .option("scope", valueName: "PREFIX", help: "The path prefix the scan covered (default: everything)."),
        ]
    )

    let project: String
    let file: String
    let format: ScanFormat?
    let commit: String?
    let scope: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        file = parsed.value("file") ?? "-"
        if let text = parsed.value("format") {
            guard let format = ScanFormat(rawValue: text) else {
                throw UsageError("--format must be duo-scan or sarif, not '\(text)'", commandPath: parsed.commandPath)
            }
            self.format = format
        } else {
            format = nil
        }
        commit = parsed.value("commit")
        scope = parsed.value("scope")
    }

    func run(_ context: CLIContext) throws {
        let bytes = try readInput()
        let format = self.format ?? Self.guessFormat(bytes)
        var request = Request(verb: "INGEST", arguments: [project], keywords: ["format": format.rawValue])
        if let commit { request.keywordList.append(("commit", commit)) }
        if let scope { request.keywordList.append(("scope", scope)) }

        let client = try context.connect()
        // A large sync takes a while after the upload: wait for it.
        client.setReplyTimeout(.seconds(600))
        let showsProgress = bytes.count >= 4 << 20 && isatty(STDERR_FILENO) == 1
        let response: Response
        do {
            response = try client.upload(request, payload: bytes) { sent in
                guard showsProgress else { return }
                let percent = sent * 100 / max(bytes.count, 1)
                FileHandle.standardError.write(
                    Data("\rbarkeep: uploading \(sent >> 20) of \(bytes.count >> 20) MiB (\(percent)%)".utf8))
                if sent == bytes.count {
                    FileHandle.standardError.write(Data("\rbarkeep: uploaded; syncing…\u{1B}[K".utf8))
                }
            }
        } catch {
            if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            throw context.explained(error)
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let fields = response.fields
        func number(_ key: String) -> Int { Int(fields[key] ?? "") ?? 0 }
        if context.isJSON {
            // Exactly these keys, in this order.
            let keys = ["run", "new", "fixed", "reopened", "unchanged", "moved", "open"]
            print("{" + keys.map { "\"\($0)\":\(number($0))" }.joined(separator: ",") + "}")
            return
        }
        if fields["repeat"] == "yes" {
            print(
                "Run \(number("run")) already has this content: nothing changed. \(number("open")) findings need work.")
            return
        }
        print(
            "Run \(number("run")): \(number("new")) new, \(number("fixed")) fixed, \(number("reopened")) reopened, "
                + "\(number("unchanged")) unchanged (\(number("moved")) moved). \(number("open")) findings need work."
        )
    }

    private func readInput() throws -> [UInt8] {
        if file == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIError.badInput("cannot read \(file)")
        }
        return Array(data)
    }

    /// SARIF documents carry `"runs"` and their version; duo_scan's carry `"findings"`.
    static func guessFormat(_ bytes: [UInt8]) -> ScanFormat {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        return head.contains("\"runs\"") || head.contains("sarif") ? .sarif : .duoScan
    }
}
