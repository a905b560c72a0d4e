import BarkeepAPI
import BarkeepCore
import BarkeepStore

extension FindingRecord {
    /// The `finding` record of a finding or an item.
    init(_ finding: Finding) {
        self.init()
        id = finding.number
        project = finding.project
        source = finding.source
        rule = finding.rule
        severity = finding.severity
        identity = finding.identity
        file = finding.file
        line = finding.line
        snippet = finding.snippet
        status = finding.status
        reason = finding.reason
        screen = finding.screen ?? AuditArea.unmapped
        title = finding.title
        message = finding.message
        firstSeenRun = finding.firstSeenRun
        lastSeenRun = finding.lastSeenRun
        step = finding.step
        needs = finding.needs.isEmpty ? nil : finding.needs
        gate = finding.gate
        tier = finding.tier
        assignee = finding.assignee
        stillReportedRun = finding.isReportedAfterVerified ? finding.lastSeenRun : nil
        unmapped = finding.unmapped?.rawValue
        excluded = finding.excludedBy
    }
}
