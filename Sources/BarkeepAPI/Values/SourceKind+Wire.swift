import BarkeepCore
import BarkeepProtocol

/// Written as its raw value (`SourceKind.allCases`), on the wire and in JSON.
extension SourceKind: WireEnum {}
