import BarkeepCore
import BarkeepProtocol

/// `screen`, `component` or `area`, as records carry a row's kind.
extension ScreenKind: WireEnum {}
