import BarkeepCore
import BarkeepProtocol

/// A finding's status on the wire: its raw value (`proposed`, `approved`…), the set Core's.
extension FindingStatus: WireEnum {}

/// Why a finding is unmapped, on the wire: its raw value (`no-glob`…), the set Core's.
extension UnmappedReason: WireEnum {}
