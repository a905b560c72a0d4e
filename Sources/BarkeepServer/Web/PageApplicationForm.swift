import Foundation

/// A page form's fields (`application/x-www-form-urlencoded`), decoded like a query string: `+` is a space, `%XX`
/// escapes are UTF-8, `%00` and bad escapes are refused.
struct PageApplicationForm {
    /// The fields in order.
    var fields: [(name: String, value: String)]

    /// The media type a page form must be sent as.
    static let mediaType = "application/x-www-form-urlencoded"

    /// The form of `body`; nil when it is not well formed.
    init?(body: [UInt8]) {
        var fields: [(name: String, value: String)] = []
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            do throws(HTTPRequestHead.Refusal) {
                let name = try HTTPRequestHead.decodePercent(pair[..<equals], plusIsSpace: true)
                let value =
                    equals < pair.endIndex
                    ? try HTTPRequestHead.decodePercent(pair[(equals + 1)...], plusIsSpace: true) : ""
                fields.append((name, value))
            } catch {
                return nil
            }
        }
        self.fields = fields
    }

    /// Whether the request says its body is a urlencoded form.
    static func isForm(_ head: HTTPRequestHead) -> Bool {
        head.values(of: "content-type").first.map {
            $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == mediaType
        } ?? false
    }

    /// The first value of `name`.
    func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }
}
