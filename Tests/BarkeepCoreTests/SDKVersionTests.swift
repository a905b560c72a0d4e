import BarkeepCore
import Foundation
import Testing

@Suite("SDKVersion")
struct SDKVersionTests {
    @Test(
        "parses one to three dot-separated numbers of up to three digits",
        arguments: [
            ("27", [27]),
            ("27.0", [27]),
            ("27.0.0", [27]),
            ("27.1", [27, 1]),
            ("27.1.0", [27, 1]),
            ("27.0.1", [27, 0, 1]),
            ("18.10.2", [18, 10, 2]),
            ("0", [0]),
            ("0.0", [0]),
            ("999.999.999", [999, 999, 999]),
            ("027.01", [27, 1]),
        ]
    )
    func parsesValid(text: String, parts: [Int]) throws {
        let version = try #require(SDKVersion(text))
        #expect(version.parts == parts)
    }

    @Test(
        "refuses anything else",
        arguments: [
            "", " ", ".", "..", "27.", ".27", "27..1", "27.1.", "1.2.3.4", "1000", "27.1000", "a", "27.a", "27.1b",
            " 27", "27 ", "27,1", "-1", "27.-1", "+1", "27.+1", "0x1", "２７", "٢٧", "27.1\n", "v27",
        ]
    )
    func refusesInvalid(text: String) {
        #expect(SDKVersion(text) == nil, "'\(text)' should not parse")
    }

    @Test(
        "trailing zeros do not matter for equality and hashing",
        arguments: [("27", "27.0"), ("27", "27.0.0"), ("27.1", "27.1.0"), ("0", "0.0.0")]
    )
    func equalIgnoringTrailingZeros(left: String, right: String) throws {
        let lhs = try #require(SDKVersion(left))
        let rhs = try #require(SDKVersion(right))
        #expect(lhs == rhs)
        #expect(lhs.hashValue == rhs.hashValue)
        #expect(!(lhs < rhs) && !(rhs < lhs))
        #expect(Set([lhs, rhs]).count == 1)
    }

    @Test(
        "compares part by part as numbers, not as text",
        arguments: [
            ("27.9", "27.10"),
            ("9", "10"),
            ("27", "27.0.1"),
            ("27.1", "27.1.1"),
            ("27.0.9", "27.1"),
            ("26.99.99", "27"),
            ("1.2.3", "1.2.4"),
            ("0", "0.0.1"),
        ]
    )
    func ordering(smaller: String, larger: String) throws {
        let lhs = try #require(SDKVersion(smaller))
        let rhs = try #require(SDKVersion(larger))
        #expect(lhs < rhs)
        #expect(!(rhs < lhs))
        #expect(lhs != rhs)
        #expect(rhs > lhs)
    }

    @Test("sorting a shuffled list puts 27.10 after 27.9")
    func sorting() {
        let versions = ["27.10", "27", "26.4", "27.9", "27.0.1", "27.1"].compactMap(SDKVersion.init)
        #expect(versions.sorted().map(\.description) == ["26.4", "27.0", "27.0.1", "27.1", "27.9", "27.10"])
    }

    @Test(
        "description is at least major.minor, without extra trailing zeros",
        arguments: [
            ("27", "27.0"),
            ("27.0", "27.0"),
            ("27.0.0", "27.0"),
            ("27.1", "27.1"),
            ("27.1.0", "27.1"),
            ("27.0.1", "27.0.1"),
            ("27.10", "27.10"),
            ("027.01", "27.1"),
        ]
    )
    func description(text: String, expected: String) throws {
        let version = try #require(SDKVersion(text))
        #expect(version.description == expected)
        #expect(SDKVersion(version.description) == version)
    }

    @Test("Codable round trip")
    func codable() throws {
        let version = try #require(SDKVersion("27.10.1"))
        let decoded = try JSONDecoder().decode(SDKVersion.self, from: JSONEncoder().encode(version))
        #expect(decoded == version)
    }
}
