import BarkeepCore
import BarkeepProtocol

/// Written as its raw value (`PauseState.allCases`), on the wire and in JSON.
extension PauseState: WireEnum {}
