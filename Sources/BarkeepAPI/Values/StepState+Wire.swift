import BarkeepCore
import BarkeepProtocol

/// A step state on the wire: `todo`, `done` or `not_applicable`.
extension StepState: WireEnum {}
