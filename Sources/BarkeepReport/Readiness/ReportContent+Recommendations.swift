import BarkeepAPI
import BarkeepCore

extension ReportContent {
    /// The screens by what is left of them, each by key: a recommendation (a section) for each screen with findings
    /// to fix, blocked items or failed poses, then the app area when anything of it needs work, then the unmapped
    /// bucket; a line for each screen with nothing to fix that is not done yet (poses to verify, steps to check);
    /// a line for each screen that is done. Each recommendation lists every finding needing work that it owns or
    /// that a component it uses owns, by tier then number.
    static func recommendations(
        _ input: ReportInput, scope: ReportScope
    ) -> (ready: [ScreenLine], toVerify: [ScreenLine], recommendations: [Recommendation]) {
        let project = input.status.project
        var itemsByKey: [String: [Item]] = [:]
        var stillReportedByKey: [String: [Item]] = [:]
        var findingsByNumber: [Int: ReportFinding] = [:]
        for finding in scope.findings {
            findingsByNumber[finding.number] = finding
            let isStillReported = finding.status == .verified && finding.stillReportedRun != nil
            guard finding.status.needsWork || isStillReported else { continue }
            let component = scope.isComponent(finding.screen) ? finding.screen : nil
            for key in scope.places(of: finding) {
                let item = item(finding, component: component, project: project)
                if isStillReported {
                    stillReportedByKey[key, default: []].append(item)
                } else {
                    itemsByKey[key, default: []].append(item)
                }
            }
        }
        func items(_ key: String) -> [Item] {
            (itemsByKey[key] ?? []).sorted { ($0.tier, $0.number) < ($1.tier, $1.number) }
        }
        func verdict(_ key: String, items: [Item], failed: [FailedPose], status: ScreenStatusRecord?) -> Verdict {
            Verdict(
                key: key, items: items, findings: findingsByNumber, failed: failed, status: status,
                steps: input.steps[key],
                stillReported: (stillReportedByKey[key] ?? []).sorted { $0.number < $1.number },
                project: project)
        }

        let statusByKey = Dictionary(
            input.status.screens.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        // Keys the status does not know (findings of a screen it left out) still get a recommendation of their own.
        let unknown = itemsByKey.keys.filter { statusByKey[$0] == nil && $0 != AuditArea.unmapped }
        let screenKeys = (scope.screens.filter { $0.kind == .screen }.map(\.key) + unknown).sorted()
        var ready: [ScreenLine] = []
        var toVerify: [ScreenLine] = []
        var recommendations: [Recommendation] = []
        for key in screenKeys {
            let status = statusByKey[key]
            let failed = failedPoses(of: key, input: input, scope: scope)
            let items = items(key)
            let verdict = verdict(key, items: items, failed: failed, status: status)
            guard !items.isEmpty || !failed.isEmpty else {
                let line = ScreenLine(screen: key, owner: status?.owner, verdict: verdict)
                if status?.isDone == true { ready.append(line) } else { toVerify.append(line) }
                continue
            }
            recommendations.append(
                Recommendation(
                    screen: key, place: .screen, owner: status?.owner, verdict: verdict,
                    components: scope.componentsOfScreen[key] ?? [], items: items, failedPoses: failed))
        }
        for area in scope.screens where area.kind == .area {
            let failed = failedPoses(of: area.key, input: input, scope: scope)
            let items = items(area.key)
            guard !area.isDone || !items.isEmpty || !failed.isEmpty else { continue }
            recommendations.append(
                Recommendation(
                    screen: area.key, place: .area, owner: area.owner,
                    verdict: verdict(area.key, items: items, failed: failed, status: area),
                    components: scope.componentsOfScreen[area.key] ?? [], items: items, failedPoses: failed))
        }
        let unmapped = items(AuditArea.unmapped)
        if !unmapped.isEmpty {
            recommendations.append(
                Recommendation(
                    screen: AuditArea.unmapped, place: .unmapped, owner: nil,
                    verdict: verdict(AuditArea.unmapped, items: unmapped, failed: [], status: nil),
                    components: Set(unmapped.compactMap(\.component)).sorted(), items: unmapped, failedPoses: []))
        }
        return (ready, toVerify, recommendations)
    }

    /// How a finding reads in a table; `component` when it is listed under a screen using that component.
    static func item(_ finding: ReportFinding, component: String?, project: ProjectInfo) -> Item {
        let reference: Inline
        let what: Inline
        if let scanner = finding.scannerReference {
            reference = .code(scanner)
            if let snippet = finding.snippet, !snippet.allSatisfy(\.isWhitespace) {
                what = .code(snippet)
            } else {
                what = .text(finding.title ?? "—")
            }
        } else {
            reference = .text(
                finding.step.flatMap(ChecklistStep.numbered).map { "manual, step \($0.name)" } ?? "manual")
            what = .text(finding.title ?? "—")
        }
        return Item(
            id: finding.itemID, number: finding.number, tier: finding.reportTier, screen: finding.screen,
            component: component, finding: reference, what: what, sdk: finding.sdkStanding(in: project).description,
            status: statusText(finding), reason: finding.reason)
    }
}

extension ReportContent.Verdict {
    /// The verdict of the screen (or area, or unmapped bucket) `key`: its `items` needing work (those of its
    /// components included) split into findings to fix by checklist step and items blocked by SDK, its `failed`
    /// poses, from its `status` line the poses not verified and, from its `steps` (or the status's counts when they
    /// are unknown), the checklist steps still to do; and its verified findings a later scan still reports.
    init(
        key: String, items: [ReportContent.Item], findings: [Int: ReportFinding], failed: [ReportContent.FailedPose],
        status: ScreenStatusRecord?, steps: [StepRecord]?, stillReported: [ReportContent.Item], project: ProjectInfo
    ) {
        var toFix: [Int: Int] = [:]
        var rulesOfNoStep: Set<String> = []
        // Blocked items by the SDK that brings what they need (nil: none known), with the symbols they wait for.
        var blocked: [SDKVersion: (count: Int, symbols: Set<String>)] = [:]
        var withoutSDK: (count: Int, symbols: Set<String>) = (0, [])
        for item in items {
            guard let finding = findings[item.number] else { continue }
            if finding.status == .blocked {
                if case .blocked(let version?) = finding.sdkStanding(in: project) {
                    let group = blocked[version] ?? (0, [])
                    blocked[version] = (group.count + 1, group.symbols.union(finding.needs))
                } else {
                    withoutSDK = (withoutSDK.count + 1, withoutSDK.symbols.union(finding.needs))
                }
            } else {
                toFix[finding.step ?? 0, default: 0] += 1
                if finding.step == nil { rulesOfNoStep.insert(finding.rule ?? FindingSource.manual.rawValue) }
            }
        }
        self.toFix = toFix.keys.sorted { ($0 == 0 ? Int.max : $0) < ($1 == 0 ? Int.max : $1) }.map { number in
            StepCount(
                step: ChecklistStep.numbered(number), count: toFix[number] ?? 0,
                rules: number == 0 ? rulesOfNoStep.sorted() : [])
        }
        self.blocked = blocked.keys.sorted().map { sdk in
            BlockedGroup(sdk: sdk, count: blocked[sdk]?.count ?? 0, symbols: (blocked[sdk]?.symbols ?? []).sorted())
        }
        if withoutSDK.count > 0 {
            self.blocked.append(BlockedGroup(sdk: nil, count: withoutSDK.count, symbols: withoutSDK.symbols.sorted()))
        }
        failedPoses = failed.map(\.pose)
        posesNotVerified = status?.missingPoses ?? []
        if let steps {
            let applicable = steps.filter { $0.state != .notApplicable }
            let open = applicable.filter { $0.state != .done }.sorted { $0.step < $1.step }
            stepsToDo =
                open.isEmpty
                ? .none
                : open.count == applicable.count
                    ? .all(open.count) : .some(open.compactMap { ChecklistStep.numbered($0.step) })
        } else if let status, status.kind == .screen, status.stepsApplicable > status.stepsDone {
            let left = status.stepsApplicable - status.stepsDone
            stepsToDo = status.stepsDone == 0 ? .all(left) : .count(left)
        } else {
            stepsToDo = .none
        }
        self.stillReported = stillReported
    }
}
