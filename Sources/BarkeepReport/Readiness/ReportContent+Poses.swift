import BarkeepAPI
import BarkeepCore

extension ReportContent {
    /// The order poses are listed in: the project's required poses in their order, then the others by number.
    static func poseOrder(_ pose: String, required: [String]) -> (Int, Int, String) {
        (required.firstIndex(of: pose) ?? required.count, Int(pose.dropFirst()) ?? 0, pose)
    }

    /// The failed poses of a screen, in pose order, with the screenshot and the finding each maps to. A screen the
    /// pose matrix leaves out falls back on the status's failed poses, which name no screenshot.
    static func failedPoses(of key: String, input: ReportInput, scope: ReportScope) -> [FailedPose] {
        let required = input.status.project.requiredPoses
        let cells = scope.poses.filter { $0.screen == key }
        guard !cells.isEmpty else {
            let status = scope.screens.first { $0.key == key }
            return (status?.failedPoses ?? []).map { FailedPose(pose: $0, screenshot: nil, finding: nil) }
        }
        return cells.filter { $0.result.result == .failed }
            .sorted {
                poseOrder($0.pose.rawValue, required: required) < poseOrder($1.pose.rawValue, required: required)
            }
            .map { cell in
                FailedPose(
                    pose: cell.pose.rawValue, screenshot: cell.screenshot,
                    finding: cell.finding.map { findingLabel($0.value, input) })
            }
    }

    /// `F-12 (proposed)`: the finding a failed pose maps to, with its status when the report knows the finding.
    private static func findingLabel(_ number: Int, _ input: ReportInput) -> String {
        let label = FindingNumber.label(number)
        guard let finding = input.findings.first(where: { $0.number == number }) else { return label }
        return "\(label) (\(statusText(finding.status)))"
    }

    /// The required poses without a result, or last recorded not run: a line per screen (`Inbox: P2 not run (simulator
    /// only); P11 no result`), the screens where no pose has any result yet together on one last line, and a single
    /// line when that is every screen.
    static func notVerified(_ input: ReportInput, scope: ReportScope) -> NotVerified {
        let required = input.status.project.requiredPoses
        let cellsByScreen = Dictionary(grouping: scope.poses, by: \.screen)
        let statusByKey = Dictionary(scope.screens.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = []
        var withoutResult: [String] = []
        var screensWithPoses = 0
        for key in Set(cellsByScreen.keys).union(statusByKey.keys).sorted() {
            // One gap: the poses of one result and reason.
            var gaps: [(poses: [String], result: String, reason: String?)] = []
            func add(_ pose: String, _ result: String, _ reason: String?) {
                if let index = gaps.firstIndex(where: { $0.result == result && $0.reason == reason }) {
                    gaps[index].poses.append(pose)
                } else {
                    gaps.append(([pose], result, reason))
                }
            }
            if let cells = cellsByScreen[key] {
                screensWithPoses += 1
                guard !cells.allSatisfy({ $0.result.result == nil }) else {
                    withoutResult.append(key)
                    continue
                }
                let ordered = cells.sorted {
                    poseOrder($0.pose.rawValue, required: required) < poseOrder($1.pose.rawValue, required: required)
                }
                for cell in ordered {
                    switch cell.result.result {
                    case .notRun: add(cell.pose.rawValue, PoseMatrix.label(cell.result), cell.reason)
                    case nil: add(cell.pose.rawValue, PoseMatrix.label(cell.result), nil)
                    case .passed, .failed, .notApplicable: continue
                    }
                }
            } else if let status = statusByKey[key], status.posesRequired > 0 {
                screensWithPoses += 1
                for pose in status.missingPoses { add(pose, "no result or not run", nil) }
            }
            guard !gaps.isEmpty else { continue }
            let text = gaps.map { gap in
                gap.poses.joined(separator: ", ") + " " + gap.result + (gap.reason.map { " (\($0))" } ?? "")
            }
            lines.append("\(key): " + text.joined(separator: "; "))
        }
        if lines.isEmpty && withoutResult.isEmpty { return .nothing }
        if lines.isEmpty && withoutResult.count == screensWithPoses { return .noResultYet(screens: screensWithPoses) }
        if !withoutResult.isEmpty { lines.append("No pose has a result yet: " + withoutResult.joined(separator: ", ")) }
        return .lines(lines)
    }
}
