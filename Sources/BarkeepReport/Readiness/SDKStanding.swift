import BarkeepCore

/// Whether the fix of a finding can be written with the SDK the team builds with.
public enum SDKStanding: Sendable, Equatable, CustomStringConvertible {
    /// Nothing stands in the way.
    case available
    /// Available, but the code must be wrapped in `if #available(iOS version, *)`.
    case gated(SDKVersion)
    /// Blocked until the team builds with this SDK; nil when no known SDK brings what it needs.
    case blocked(SDKVersion?)

    /// `available`, `needs if #available(iOS 27.1, *)`, `blocked on the iOS 27.1 SDK`, `blocked, no SDK yet`.
    public var description: String {
        switch self {
        case .available: "available"
        case .gated(let version): "needs if #available(iOS \(version), *)"
        case .blocked(let version?): "blocked on the iOS \(version) SDK"
        case .blocked(nil): "blocked, no SDK yet"
        }
    }
}

extension ReportFinding {
    /// Where the finding's fix stands against the project's SDK and deployment target. A blocked finding's SDK
    /// comes from its reason (`needs the iOS 27.1 SDK (axisBehavior)`); a gate at or below the deployment target
    /// needs no `#available`, whatever the record says.
    public func sdkStanding(in project: ProjectInfo) -> SDKStanding {
        if status == .blocked {
            return .blocked(reason.flatMap(Self.sdkNamed(in:)))
        }
        if let gate, gate > project.deploymentTarget {
            return .gated(gate)
        }
        return .available
    }

    /// The version in `… needs the iOS 27.1 SDK …`, if the text says so.
    static func sdkNamed(in reason: String) -> SDKVersion? {
        let marker = "needs the iOS "
        guard let start = reason.range(of: marker)?.upperBound,
            let end = reason[start...].range(of: " SDK")?.lowerBound
        else { return nil }
        return SDKVersion(String(reason[start..<end]))
    }
}
