/// Why a benchmark stopped: printed by its executable, which then exits 1.
public struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
