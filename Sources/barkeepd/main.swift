import BarkeepCommandLine
import BarkeepCore
import BarkeepStore
import Foundation

// Before any thread allocates: large blocks get mappings of their own, so what a large upload used goes back.
FreedMemory.configureAllocator()

let parsed: ParsedCommand
do {
    parsed = try CommandLineParser.parse(
        Array(CommandLine.arguments.dropFirst()),
        root: DaemonCommand.self,
        environment: ProcessInfo.processInfo.environment
    )
} catch {
    FileHandle.standardError.write(Data("barkeepd: \(error)\n".utf8))
    exit(UsageError.exitCode)
}
if parsed.flag("version") {
    print("barkeepd \(BarkeepVersion.current)")
    exit(0)
}
if parsed.isHelpRequested {
    print(CommandLineParser.help(for: parsed.path), terminator: "")
    exit(0)
}

let options: DaemonOptions
do {
    options = try DaemonOptions(parsed)
} catch {
    FileHandle.standardError.write(Data("barkeepd: \(error)\n".utf8))
    exit(UsageError.exitCode)
}
let daemon = Daemon(options: options, logger: Logger(level: options.logLevel))
exit(daemon.run())
