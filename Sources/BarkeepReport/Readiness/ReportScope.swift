import BarkeepAPI
import BarkeepCore

/// What one readiness report covers, worked out once from its input and selection: the screens, the findings and the
/// pose cells, and under which keys each finding is listed.
///
/// A finding is listed under the screen (or the app area) that owns it. A component's finding is listed under every
/// screen that uses the component, and under `unmapped` when no screen does; so is a finding no screen owns. A part
/// keeps only the keys it selected, so it never lists `unmapped`.
struct ReportScope: Sendable {
    /// Whether the report covers the whole project.
    let isWholeProject: Bool
    /// The selected screens and app area, in the status's order.
    let screens: [ScreenStatusRecord]
    /// Their keys.
    let keys: Set<String>
    /// For each component, the screens using it (by key); only components are keys here.
    let usersOfComponent: [String: [String]]
    /// For each screen and the app area, the components it uses.
    let componentsOfScreen: [String: [String]]
    /// The findings listed anywhere in the report, whatever their status, by number.
    let findings: [ReportFinding]
    /// The pose cells of the covered screens.
    let poses: [PoseResultRecord]

    /// The scope of `selection` in `input`.
    init(_ input: ReportInput, selection: ReportSelection) {
        isWholeProject = selection.isWholeProject
        screens = selection.screens(of: input.status)
        let keys = Set(screens.map(\.key))
        self.keys = keys
        var users: [String: [String]] = [:]
        var components: [String: [String]] = [:]
        for screen in input.screens {
            switch screen.kind {
            case .component: users[screen.key] = (screen.uses ?? []).sorted()
            case .screen, .area: components[screen.key] = (screen.uses ?? []).sorted()
            }
        }
        usersOfComponent = users
        componentsOfScreen = components
        let isWholeProject = selection.isWholeProject
        findings = input.findings.filter { finding in
            !Self.places(of: finding, users: users, keys: isWholeProject ? nil : keys).isEmpty
        }.sorted { $0.number < $1.number }
        poses = isWholeProject ? input.poses : input.poses.filter { keys.contains($0.screen) }
    }

    /// The keys `finding` is listed under in this report.
    func places(of finding: ReportFinding) -> [String] {
        Self.places(of: finding, users: usersOfComponent, keys: isWholeProject ? nil : keys)
    }

    /// Whether `key` names a component.
    func isComponent(_ key: String) -> Bool { usersOfComponent[key] != nil }

    /// The keys `finding` is listed under, kept to `keys` when given (a part).
    private static func places(of finding: ReportFinding, users: [String: [String]], keys: Set<String>?) -> [String] {
        var places = [finding.screen]
        if let users = users[finding.screen] {
            places = users.isEmpty ? [AuditArea.unmapped] : users
        }
        guard let keys else { return places }
        return places.filter(keys.contains)
    }
}
