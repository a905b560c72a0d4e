import BarkeepAPI
import BarkeepCore
import Foundation

/// Finds the files renamed since the project's latest run, for `barkeep ingest` in a git checkout: pass 3 of the
/// sync then keeps the findings of a renamed file (docs/sync.md).
///
/// The base is the commit of the latest run of the scan's tool and scope (RUNS); the head is the scan's `--commit`,
/// else `HEAD`. Git lists the renames between them (`git diff --name-status --find-renames -z --diff-filter=R`). Not
/// in a checkout, in one that does not have the head (the scan is of another repository), with no earlier run or one
/// without a commit, nothing is looked up and nothing is said; when the checkout lacks the base (a shallow clone) or
/// git cannot diff the two, one line on standard error says so, and the scan goes without renames.
enum RenameLookup {
    /// The most runs read to find the latest of the scan's tool and scope.
    static let runsRead = RunsRequest.defaultLimit

    /// The renames between the latest run's commit and `commit` (or HEAD); nil when none can be known.
    static func renames(
        project: String, scope: String, format: ScanFormat, scan bytes: [UInt8], commit: String?, client: Client,
        environment: [String: String]
    ) -> FileRenames? {
        guard format != .sdkCheck, GitCommand.isInsideWorkTree(environment: environment) else { return nil }
        guard
            let runs = try? client.send(RunsRequest(project: project, limit: RecordLimit(runsRead))).rows,
            let base = latestCommit(of: runs, scope: scope, scan: bytes, format: format)
        else { return nil }
        let head = commit ?? "HEAD"
        guard base.lowercased() != head.lowercased(), head == "HEAD" || GitCommand.isCommitID(head),
            GitCommand.isCommitID(base), let headCommit = GitCommand.commit(head, environment: environment)
        else { return nil }
        guard GitCommand.commit(base, environment: environment) != nil else {
            note("this checkout does not have commit \(base.prefix(12)) of the latest run (a shallow clone?)")
            return nil
        }
        guard
            let output = GitCommand.output(
                FileRenames.gitDiffArguments(from: base, to: headCommit), environment: environment)
        else {
            note("git could not compare commit \(base.prefix(12)) of the latest run with \(head.prefix(12))")
            return nil
        }
        do {
            return try FileRenames.parse(nullTerminated: [UInt8](output))
        } catch {
            note("git's list of renames was refused: \(error)")
            return nil
        }
    }

    /// The commit of the newest run of the scan's tool over `scope` in `runs` (newest first). The scan's tool is read
    /// from the scan only when those runs are of more than one tool.
    static func latestCommit(of runs: [RunRecord], scope: String, scan bytes: [UInt8], format: ScanFormat) -> String? {
        let candidates = runs.filter { $0.format != ScanFormat.sdkCheck.rawValue && ($0.scope ?? "") == scope }
        guard let newest = candidates.first else { return nil }
        if Set(candidates.map(\.tool)).count == 1 { return newest.commit }
        let tool: String
        do {
            tool =
                switch format {
                case .sarif: try SARIFParser.parse(bytes).tool
                default: try DuoScanParser.parseTable(bytes).tool
                }
        } catch {
            return nil
        }
        return candidates.first { $0.tool == tool }?.commit
    }

    /// Says once, on standard error, why no renames go with the scan.
    private static func note(_ reason: String) {
        FileHandle.standardError.write(
            Data("barkeep: no renames sent: \(reason); a finding in a renamed file will be fixed and new\n".utf8))
    }
}
