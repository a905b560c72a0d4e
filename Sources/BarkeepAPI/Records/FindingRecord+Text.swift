import BarkeepCore

extension FindingRecord {
    /// Its status as people read it: `verified, still reported in run 7` for a verified finding a later scan still
    /// reports, else the status.
    public var statusText: String {
        guard let run = stillReportedRun else { return status.rawValue }
        return FindingLifecycle.verifiedStillReported(inRun: String(run))
    }

    /// Where it is: `file:line` for a scanner's, `step N` for an item of a checklist step, else empty.
    public var place: String {
        if let file { return "\(file):\(line.map { String($0) } ?? "")" }
        return step.map { "step \($0)" } ?? ""
    }
}
