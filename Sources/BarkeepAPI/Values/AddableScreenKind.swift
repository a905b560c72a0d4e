import BarkeepCore
import BarkeepProtocol

/// The kinds SCREEN ADD and SCREEN SET give a row (`kind=`): a screen or a component; the app area is built in.
public enum AddableScreenKind: String, WireEnum {
    /// A screen.
    case screen
    /// A component.
    case component

    /// The kind it is.
    public var kind: ScreenKind {
        switch self {
        case .screen: .screen
        case .component: .component
        }
    }
}
