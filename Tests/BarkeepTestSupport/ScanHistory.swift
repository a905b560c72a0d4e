import BarkeepCore
import BarkeepHashing
import Foundation

/// A reference tracker's answer for a history of scans (`duo_scan/history/NetNewsWire/expected.json`, exact
/// identity only, `duo_scan/history/NetNewsWire-expected-pass2.json`, with pass 2's changed findings, and
/// `duo_scan/history/NetNewsWire-expected-v3.json`, with pass 3's renamed ones too), run by run.
public struct ScanHistory: Sendable {
    /// One run of the history, as the reference tracker counted it.
    public struct Run: Sendable {
        /// The scan's path inside the fixtures.
        public var path: String
        /// What the run changed.
        public var counts: SyncCounts
        /// The findings open after the run.
        public var openAfter: Int
        /// The identities of those findings (a changed or renamed finding's is its new one).
        public var openIdentities: Set<String>
        /// The files renamed since the run before, as the renames file says (empty without one).
        public var renames: FileRenames
        /// The identities, before the run, of the findings it renamed (pass 3).
        public var renamedIdentities: Set<String>
    }

    /// The NetNewsWire history's scans.
    public static let netNewsWireDirectory = "duo_scan/history/NetNewsWire"
    /// The exact-identity answer for the NetNewsWire history.
    public static let netNewsWireExactPath = netNewsWireDirectory + "/expected.json"
    /// The answer with pass 2 (changed findings) for the NetNewsWire history.
    public static let netNewsWirePass2Path = "duo_scan/history/NetNewsWire-expected-pass2.json"
    /// The answer with passes 2 and 3 (changed and renamed findings) for the NetNewsWire history, with its renames.
    public static let netNewsWireV3Path = "duo_scan/history/NetNewsWire-expected-v3.json"
    /// The files git says each run of the NetNewsWire history renamed: `{"runs": {"05-e54056ce.json": {old: new}}}`.
    public static let netNewsWireRenamesPath = "duo_scan/history/NetNewsWire-renames.json"

    /// The runs, in the order they are ingested.
    public var runs: [Run]

    /// Reads an expected-answer file: counts from each run's numbers, open identities replayed from its details
    /// (new, reopened and changed come in; fixed and a changed finding's previous identity go out; a moved finding
    /// with a `previous_file`, renamed, changes identity), and each run's renames from `renamesPath` when given.
    public init(
        expectedPath: String, scansIn directory: String, renamesPath: String? = nil, tool: String = "duo_scan"
    ) throws {
        guard let runs = try Fixtures.json(expectedPath)["runs"] as? [[String: Any]] else {
            throw TestSupportError("\(expectedPath) has no runs")
        }
        var renamesByFile: [String: [String: String]] = [:]
        if let renamesPath {
            guard let byFile = try Fixtures.json(renamesPath)["runs"] as? [String: [String: String]] else {
                throw TestSupportError("\(renamesPath) has no runs")
            }
            renamesByFile = byFile
        }
        func identity(_ item: [String: Any]) -> String {
            FindingIdentity.digest(
                tool: tool,
                rule: item["rule"] as? String ?? "",
                file: item["file"] as? String ?? "",
                normalizedSnippet: item["normalized_snippet"] as? String ?? "",
                occurrence: item["occurrence"] as? Int ?? -1, hasher: LibcryptoHasher()
            )
        }
        var open: Set<String> = []
        self.runs = try runs.map { run in
            guard let file = run["file"] as? String, let details = run["details"] as? [String: [[String: Any]]] else {
                throw TestSupportError("\(expectedPath): a run without its file or details")
            }
            for item in details["fixed"] ?? [] { open.remove(identity(item)) }
            for item in details["changed"] ?? [] {
                open.remove(identity(item["previous"] as? [String: Any] ?? [:]))
            }
            var renamedIdentities: Set<String> = []
            for item in details["moved"] ?? [] {
                guard let previousFile = item["previous_file"] as? String else { continue }
                var previous = item
                previous["file"] = previousFile
                renamedIdentities.insert(identity(previous))
                open.remove(identity(previous))
                open.insert(identity(item))
            }
            for item in (details["new"] ?? []) + (details["reopened"] ?? []) + (details["changed"] ?? []) {
                open.insert(identity(item))
            }
            func count(_ key: String) -> Int { run[key] as? Int ?? 0 }
            return Run(
                path: directory + "/" + file,
                counts: SyncCounts(
                    new: count("new"), fixed: count("fixed"), reopened: count("reopened"),
                    unchanged: count("unchanged"), moved: count("moved"), changed: count("changed"),
                    renamed: count("renamed")
                ),
                openAfter: run["open_after"] as? Int ?? -1,
                openIdentities: open,
                renames: FileRenames(renamesByFile[file] ?? [:]),
                renamedIdentities: renamedIdentities
            )
        }
    }
}
