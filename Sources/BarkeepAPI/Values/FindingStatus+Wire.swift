import BarkeepCore
import BarkeepProtocol

/// A finding's status, as records carry it.
extension FindingStatus: WireEnum {}
