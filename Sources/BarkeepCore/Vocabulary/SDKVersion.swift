/// An iOS SDK or deployment target version such as `27.1`, compared part by part (`27.10` > `27.9`).
public struct SDKVersion: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The numeric parts, most significant first, without trailing zeros (`27.0` is stored as `[27]`).
    public let parts: [Int]

    /// Parses one to three dot-separated numbers of up to three digits each.
    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            // Digits only: `Int` alone would also accept a sign ("-1", "+1").
            guard (1...3).contains(piece.count), piece.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(piece)
            else {
                return nil
            }
            parts.append(value)
        }
        while parts.count > 1, parts.last == 0 { parts.removeLast() }
        self.parts = parts
    }

    /// `major.minor`, e.g. `SDKVersion(27, 1)`.
    public init(_ major: Int, _ minor: Int = 0) {
        var parts = [major, minor]
        while parts.count > 1, parts.last == 0 { parts.removeLast() }
        self.parts = parts
    }

    /// Always at least `major.minor`: `27` prints as `27.0`.
    public var description: String {
        (parts.count == 1 ? parts + [0] : parts).map(String.init).joined(separator: ".")
    }

    public static func < (lhs: SDKVersion, rhs: SDKVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let left = index < lhs.parts.count ? lhs.parts[index] : 0
            let right = index < rhs.parts.count ? rhs.parts[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}
