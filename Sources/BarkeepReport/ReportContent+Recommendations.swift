import BarkeepCore

extension ReportContent {
    /// The screens done (by key) and one recommendation per screen that is not, by key, then the app area when
    /// anything of it needs work, then the unmapped bucket. Each lists every finding needing work that it owns or
    /// that a component it uses owns, by tier then number.
    static func recommendations(
        _ input: ReportInput, scope: ReportScope
    ) -> (done: [String], recommendations: [Recommendation]) {
        let project = input.status.project
        var itemsByKey: [String: [Item]] = [:]
        for finding in scope.findings where finding.status.needsWork {
            let component = scope.isComponent(finding.screen) ? finding.screen : nil
            for key in scope.places(of: finding) {
                itemsByKey[key, default: []].append(item(finding, component: component, project: project))
            }
        }
        func items(_ key: String) -> [Item] {
            (itemsByKey[key] ?? []).sorted { ($0.tier, $0.number) < ($1.tier, $1.number) }
        }

        let statusByKey = Dictionary(
            input.status.screens.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        // Keys the status does not know (findings of a screen it left out) still get a recommendation of their own.
        let unknown = itemsByKey.keys.filter { statusByKey[$0] == nil && $0 != AuditArea.unmapped }
        let screenKeys = (scope.screens.filter { $0.kind == .screen }.map(\.key) + unknown).sorted()
        var done: [String] = []
        var recommendations: [Recommendation] = []
        for key in screenKeys {
            let failed = failedPoses(of: key, input: input, scope: scope)
            if statusByKey[key]?.isDone == true, items(key).isEmpty, failed.isEmpty {
                done.append(key)
                continue
            }
            recommendations.append(
                Recommendation(
                    screen: key, place: .screen, owner: statusByKey[key]?.owner, steps: steps(of: key, input: input),
                    components: scope.componentsOfScreen[key] ?? [], items: items(key), failedPoses: failed))
        }
        for area in scope.screens where area.kind == .area {
            let failed = failedPoses(of: area.key, input: input, scope: scope)
            guard !area.isDone || !items(area.key).isEmpty || !failed.isEmpty else { continue }
            recommendations.append(
                Recommendation(
                    screen: area.key, place: .area, owner: area.owner, steps: [],
                    components: scope.componentsOfScreen[area.key] ?? [], items: items(area.key), failedPoses: failed))
        }
        let unmapped = items(AuditArea.unmapped)
        if !unmapped.isEmpty {
            recommendations.append(
                Recommendation(
                    screen: AuditArea.unmapped, place: .unmapped, owner: nil, steps: [],
                    components: Set(unmapped.compactMap(\.component)).sorted(), items: unmapped, failedPoses: []))
        }
        return (done, recommendations)
    }

    /// The steps that apply to a screen, by number, each marked done or not; every step when its steps are unknown.
    private static func steps(of key: String, input: ReportInput) -> [StepMention] {
        guard let lines = input.steps[key] else { return Checklist.steps.map { StepMention(step: $0, isDone: false) } }
        return lines.sorted { $0.step < $1.step }.filter { $0.state != .notApplicable }.compactMap { line in
            Checklist.step(line.step).map { StepMention(step: $0, isDone: line.state == .done) }
        }
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
            reference = .text(finding.step.flatMap(Checklist.step).map { "manual, step \($0.name)" } ?? "manual")
            what = .text(finding.title ?? "—")
        }
        return Item(
            id: finding.itemID, number: finding.number, tier: finding.reportTier, screen: finding.screen,
            component: component, finding: reference, what: what, sdk: finding.sdkStanding(in: project).description,
            status: statusText(finding.status), reason: finding.reason)
    }
}
