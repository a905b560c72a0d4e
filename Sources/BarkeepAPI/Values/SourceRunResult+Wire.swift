import BarkeepCore
import BarkeepProtocol

/// Written as its raw value (`SourceRunResult.allCases`), on the wire and in JSON.
extension SourceRunResult: WireEnum {}
