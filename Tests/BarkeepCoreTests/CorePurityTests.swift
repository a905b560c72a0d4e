import Foundation
import Testing

/// Core does no I/O and reads neither a clock nor randomness (DESIGN.md's module table): its sources, read from the
/// source tree with every subfolder, name no file-system, standard-stream, clock or random-number API. Directory
/// walking lives in BarkeepDiscovery, the logger's standard-error sink and its clock in BarkeepCommandLine, token
/// generation in BarkeepStore; a rule that needs the time takes it as a parameter (InboxTracker's `now`).
@Suite("BarkeepCore does no I/O and reads no clock")
struct CorePurityTests {
    /// The APIs whose use in Core means I/O: files and the standard streams.
    static let inputOutput = [
        "FileManager", "FileHandle", "fputs", "fopen", "fwrite", "stderr", "stdout", "stdin", "print(",
        "readLine(",
    ]

    /// The APIs whose use in Core means reading the clock or drawing randomness, which would make a rule's answer
    /// depend on when or by chance; `.now` of any clock (`ContinuousClock.now`, `clock.now`) besides.
    static let clockAndRandomness = [
        "Date()", "Date.now", "clock_gettime", "gettimeofday", "ProcessInfo", "SystemRandomNumberGenerator",
        ".random(",
    ]

    /// Sources/BarkeepCore, found from this file's place in the tree.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/BarkeepCore")

    /// Every Swift source of Core, subfolders included, as paths relative to Sources/BarkeepCore.
    static func sourcePaths() throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// Core's folders, by role: a newcomer tells from the folder where a rule, a format or a name lives.
    static let folders = [
        // Closed sets and names: statuses, severities, poses, roles, the checklist, kinds, versions.
        "Vocabulary",
        // Audit decisions: readiness, lifecycles, queries, selections, attribution, SDK availability.
        "Rules",
        // What a scan does to the findings: identity, the sync plan, scan tables and staleness.
        "Sync",
        // What the daemon does alone: hook retries, inboxes, scanner commands, schedules, webhook URLs.
        "Automation",
        // Parsers and codecs: JSON, duo_scan, SARIF, SDK checks, timestamps, commit times.
        "Formats",
        // Text for people: quoting, excerpts, quantities, percentages, suggestions, log lines.
        "Text",
    ]

    /// The modules Core may import: Foundation and the standard library's own. No C library: SHA-256 is libcrypto's,
    /// in BarkeepHashing, and the callers of `FindingIdentity` hand in its hasher.
    static let imports: Set<String> = ["Foundation", "Synchronization"]

    @Test("the walk finds every source of Core, each in one of its folders (CoreError.swift alone at the root)")
    func everySourceInAFolder() throws {
        let paths = try Self.sourcePaths()
        #expect(paths.count > 60, "found only \(paths) in \(Self.sources.path)")
        #expect(paths.contains("CoreError.swift"))
        for path in paths where path != "CoreError.swift" {
            let parts = path.split(separator: "/")
            #expect(
                parts.count == 2 && Self.folders.contains(String(parts[0])),
                "Sources/BarkeepCore/\(path) is in none of \(Self.folders.joined(separator: ", "))")
        }
    }

    @Test("no source file of BarkeepCore names a file-system, standard-stream, clock or random-number API")
    func noInputOutputClockOrRandomness() throws {
        for path in try Self.sourcePaths() {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for api in Self.inputOutput where line.contains(api) {
                    Issue.record("Sources/BarkeepCore/\(path):\(index + 1) uses \(api): Core does no I/O")
                }
                let clockNow: [String] = line.contains(/\.now\b/) ? [".now"] : []
                for api in Self.clockAndRandomness.filter({ line.contains($0) }) + clockNow {
                    let place = "Sources/BarkeepCore/\(path):\(index + 1)"
                    Issue.record("\(place) uses \(api): Core reads no clock and no randomness; take them as parameters")
                }
            }
        }
    }

    @Test("BarkeepCore imports only Foundation and the standard library: no C library")
    func onlyFoundation() throws {
        var found = 0
        for path in try Self.sourcePaths() {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let match = line.firstMatch(of: /^\s*(?:@\w+\s+)?import\s+(?:\w+\s+)?(\w+)/) else { continue }
                let module = String(match.output.1)
                found += 1
                #expect(
                    Self.imports.contains(module),
                    "Sources/BarkeepCore/\(path):\(index + 1) imports \(module): Core stays Foundation-only")
            }
        }
        #expect(found > 0, "the walk read no import at all")
    }
}
