/// One of the sixteen device states a screen is verified in (domain/poses.json). The raw values are those stored,
/// sent and shown; Schema's `poses` table and the pose CHECKs hold the same list (SchemaTests checks every value).
public enum Pose: String, Sendable, CaseIterable, Codable {
    /// Closed, outer display, portrait.
    case p1 = "P1"
    /// Closed, outer display, landscape.
    case p2 = "P2"
    /// Open flat, inner display, landscape.
    case p3 = "P3"
    /// Open flat, inner display, portrait.
    case p4 = "P4"
    /// Partially folded, book pose.
    case p5 = "P5"
    /// Partially folded, tabletop pose.
    case p6 = "P6"
    /// Transitions: close/open, fold/flat.
    case p7 = "P7"
    /// Split View multitasking on the inner display.
    case p8 = "P8"
    /// Multiple windows.
    case p9 = "P9"
    /// Camera app with a capture accessory.
    case p10 = "P10"
    /// Right-to-left language on the inner display.
    case p11 = "P11"
    /// Reduce Transparency on.
    case p12 = "P12"
    /// Camera direction changes.
    case p13 = "P13"
    /// StandBy on the outer display.
    case p14 = "P14"
    /// Mac Catalyst build.
    case p15 = "P15"
    /// Physical checks: reach, haptics, hitches, panels.
    case p16 = "P16"

    /// The pose `text` names, in any case (`p3`, `P3`); nil for anything else (`P0`, `P17`, `P03`).
    public init?(_ text: String) {
        self.init(rawValue: text.uppercased())
    }

    /// The range as messages and help texts name it: "P1 to P16".
    public static let range = "\(allCases[0].rawValue) to \(allCases[allCases.count - 1].rawValue)"

    /// The poses a new project requires (the default of `projects.required_poses`).
    public static let defaultRequired: [Pose] = [.p1, .p2, .p3, .p4, .p11, .p12]

    /// Whether only a device can verify the pose: the simulator cannot, so it passes only on a named device.
    public var isDeviceOnly: Bool {
        switch self {
        case .p10, .p13, .p14, .p16: true
        default: false
        }
    }

    /// The device state the pose puts the iPhone Duo in, as domain/poses.json words it.
    public var state: String {
        switch self {
        case .p1: "Closed, outer display, portrait"
        case .p2: "Closed, outer display, landscape"
        case .p3: "Open flat, inner display, landscape"
        case .p4: "Open flat, inner display, portrait"
        case .p5: "Partially folded, book pose"
        case .p6: "Partially folded, tabletop pose"
        case .p7: "Transitions: close/open, fold/flat"
        case .p8: "Split View multitasking on the inner display"
        case .p9: "Multiple windows (apps that support scenes)"
        case .p10: "Camera app with a capture accessory"
        case .p11: "Right-to-left language on the inner display"
        case .p12: "Reduce Transparency on"
        case .p13: "Camera direction changes (camera apps)"
        case .p14: "StandBy on the outer display"
        case .p15: "Mac Catalyst build (apps that ship one)"
        case .p16: "Physical checks: reach, haptics, hitches, panels"
        }
    }

    /// The device-only poses joined as help texts list them: "P10, P13, P14, P16".
    public static var deviceOnlyList: String {
        allCases.filter(\.isDeviceOnly).map(\.rawValue).joined(separator: ", ")
    }
}
