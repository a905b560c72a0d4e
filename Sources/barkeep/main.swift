import BarkeepCommandLine
import BarkeepCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Parses the command line, runs the chosen command and exits with 0, 1 (failure) or 64 (usage error).
func runBarkeep(_ arguments: [String], environment: [String: String]) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let parsed: ParsedCommand
    do {
        parsed = try CommandLineParser.parse(arguments, root: BarkeepCommand.self, environment: environment)
    } catch {
        FileHandle.standardError.write(Data("barkeep: \(error)\n".utf8))
        return UsageError.exitCode
    }
    if parsed.flag("version") {
        print("barkeep \(BarkeepVersion.current)")
        return 0
    }
    if parsed.isHelpRequested {
        print(CommandLineParser.help(for: parsed.path), terminator: "")
        return 0
    }
    guard let command = parsed.command as? any RunnableCommand.Type else {
        // A command group without its command: say what it offers, as a usage error.
        FileHandle.standardError.write(Data(CommandLineParser.help(for: parsed.path).utf8))
        return UsageError.exitCode
    }
    do {
        let context = try CLIContext(parsed)
        try command.init(parsed).run(context)
        return 0
    } catch let error as UsageError {
        FileHandle.standardError.write(Data("barkeep: \(error)\n".utf8))
        return UsageError.exitCode
    } catch let error as CLIError {
        FileHandle.standardError.write(Data("barkeep: \(error)\n".utf8))
        return error.exitCode
    } catch {
        FileHandle.standardError.write(Data("barkeep: \(error)\n".utf8))
        return 1
    }
}

exit(runBarkeep(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
