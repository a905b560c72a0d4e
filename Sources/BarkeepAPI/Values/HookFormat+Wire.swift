import BarkeepCore
import BarkeepProtocol

/// Written as its raw value (`HookFormat.allCases`), on the wire and in JSON.
extension HookFormat: WireEnum {}
