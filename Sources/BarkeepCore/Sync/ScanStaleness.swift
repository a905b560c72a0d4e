import Foundation

/// A stored run of one tool and scope, as far as the staleness rule looks at it.
public struct PriorScan: Sendable, Equatable {
    /// The run's number in its project.
    public var number: Int
    /// The commit it scanned, when it said.
    public var commit: String?
    /// That commit's committer time, when it was given.
    public var commitTime: Date?

    /// Creates a prior run.
    public init(number: Int, commit: String?, commitTime: Date?) {
        self.number = number
        self.commit = commit
        self.commitTime = commitTime
    }
}

/// Why a scan may not be applied: it would undo what newer scans and people did.
public enum StaleScan: Sendable, Equatable {
    /// The commit was already ingested by `run` (the latest such run).
    case alreadyIngested(commit: String, run: PriorScan)
    /// The commit is older than the commit of `latest`, the latest run whose commit time is known.
    case older(commit: String, commitTime: Date, latest: PriorScan, latestCommit: String, latestCommitTime: Date)
    /// The commit came without its time, so it cannot be ordered against `latest`, the latest run whose commit time is
    /// known: applied, an old commit's scan would undo what newer scans and people did.
    case unordered(commit: String, latest: PriorScan, latestCommit: String, latestCommitTime: Date)

    /// One line for people, naming the run and commits, and how to ingest the scan anyway: `tool` and `scope`
    /// (empty for the whole project) say which runs were compared.
    public func message(tool: String, scope: String) -> String {
        let runs = "\(tool), " + (scope.isEmpty ? "whole project" : "scope \(scope)")
        switch self {
        case .alreadyIngested(let commit, let run):
            return
                "commit \(Self.short(commit)) was ingested as run \(run.number) (\(runs)); --force to ingest it again"
        case .older(let commit, let time, let latest, let latestCommit, let latestTime):
            return "commit \(Self.short(commit)) (committed \(CommitTime.text(time))) is older than commit "
                + "\(Self.short(latestCommit)) (committed \(CommitTime.text(latestTime))) of run \(latest.number), "
                + "the latest run (\(runs)); --force to ingest it anyway"
        case .unordered(let commit, let latest, let latestCommit, let latestTime):
            return "commit \(Self.short(commit)) came without its commit time, so it cannot be ordered against commit "
                + "\(Self.short(latestCommit)) (committed \(CommitTime.text(latestTime))) of run \(latest.number), "
                + "the latest run (\(runs)); give its commit time (--commit-time, or ingest from its checkout), or "
                + "--force to ingest it anyway"
        }
    }

    /// A commit id as messages show it: its first 8 digits.
    static func short(_ commit: String) -> String { String(commit.prefix(8)) }
}

/// The rule that keeps a scan of an old commit from undoing triage: a scan with a commit is refused when that
/// commit was already ingested for the same tool and scope, when its committer time is older than the commit time
/// of the latest run of that tool and scope whose time is known, or when it comes without a time while such a run
/// exists (it cannot be ordered). A run without a time therefore never turns the check off for the runs after it.
/// The caller has already answered an exact repeat of the latest run (same bytes) as that run; a forced scan and a
/// scan without a commit are never refused.
public enum ScanStaleness {
    /// The shortest abbreviation of a commit id that counts as naming the same commit as a longer id.
    public static let minimumAbbreviation = 7

    /// Whether two commit ids name the same commit: equal (ignoring case), or one an abbreviation of the other of at
    /// least `minimumAbbreviation` digits.
    public static func isSameCommit(_ first: String, _ second: String) -> Bool {
        let (a, b) = (first.lowercased(), second.lowercased())
        if a == b { return true }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        return short.count >= minimumAbbreviation && long.hasPrefix(short)
    }

    /// Why a scan of `commit` (committed at `commitTime`) may not be applied, given `history`, the stored runs of
    /// the same tool and scope, newest first; nil when it may.
    public static func refusal(
        commit: String?,
        commitTime: Date?,
        isForced: Bool,
        history: [PriorScan]
    ) -> StaleScan? {
        guard let commit, !isForced else { return nil }
        if let earlier = history.first(where: { $0.commit.map { isSameCommit($0, commit) } ?? false }) {
            return .alreadyIngested(commit: commit, run: earlier)
        }
        guard let latest = history.first(where: { $0.commit != nil && $0.commitTime != nil }),
            let latestCommit = latest.commit, let latestTime = latest.commitTime
        else { return nil }
        guard let commitTime else {
            return .unordered(commit: commit, latest: latest, latestCommit: latestCommit, latestCommitTime: latestTime)
        }
        if commitTime < latestTime {
            return .older(
                commit: commit, commitTime: commitTime, latest: latest, latestCommit: latestCommit,
                latestCommitTime: latestTime)
        }
        return nil
    }
}
