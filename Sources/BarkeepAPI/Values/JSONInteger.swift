import Foundation

/// Reads a whole number from a JSON value as JSONSerialization gives it: an NSNumber that is not a boolean and holds
/// a whole number (on Linux an NSNumber of 0 or 1 also casts to Bool, so `is Bool` cannot tell them apart).
enum JSONInteger {
    /// The whole number `json` holds; nil for a boolean, a fraction, anything else.
    static func value(_ json: Any) -> Int? {
        guard let number = json as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let double = number.doubleValue
        guard double == double.rounded(), abs(double) < 9e15 else { return nil }
        return number.intValue
    }
}
