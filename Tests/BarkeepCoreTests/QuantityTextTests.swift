import BarkeepCore
import Testing

@Suite("QuantityText")
struct QuantityTextTests {
    // MARK: - Seconds

    @Test(
        "seconds: a whole number, bare or with s, m, h or d",
        arguments: [
            ("90", 90),
            ("0", 0),
            ("5s", 5),
            ("0s", 0),
            ("10m", 600),
            ("2h", 7200),
            ("1d", 86_400),
            ("007m", 420),
            ("366d", 366 * 86_400),
            ("31622400", 366 * 86_400),
            ("31622400s", 366 * 86_400),
            ("527040m", 366 * 86_400),
            ("8784h", 366 * 86_400),
        ]
    )
    func parsesSeconds(text: String, seconds: Int) {
        #expect(QuantityText.seconds(text) == seconds)
    }

    @Test(
        "seconds: refuses anything else, and values past 366 days",
        arguments: [
            "", " ", "s", "m", "-5", "-5s", "+5", "+5m", "1.5m", "1.5", "10 m", " 10m", "10m ", "10M", "10S", "10H",
            "10D", "10x", "10ms", "10min", "10mm", "m10", "1h30m", "0x10", "1_000", "1,000", "５m", "٥m", "10m\n",
            "5\u{301}", "367d", "8785h", "527041m", "31622401", "999999999999d", "9999999999999",
            "99999999999999999999", "99999999999999999999999999999999999999d", "9223372036854775807",
            "9223372036854775808", "18446744073709551616s",
        ]
    )
    func refusesSeconds(text: String) {
        #expect(QuantityText.seconds(text) == nil, "'\(text)' should not parse")
    }

    // MARK: - Bytes

    @Test(
        "bytes: a whole number, bare or with B, K, M, G, KiB, MiB or GiB",
        arguments: [
            ("0", 0),
            ("1000", 1000),
            ("1000B", 1000),
            ("0B", 0),
            ("1K", 1024),
            ("1KiB", 1024),
            ("64M", 64 << 20),
            ("64MiB", 67_108_864),
            ("4G", 4 << 30),
            ("4GiB", 4 << 30),
            ("1024GiB", 1 << 40),
            ("1048576MiB", 1 << 40),
            ("1099511627776", 1 << 40),
            ("1099511627775B", (1 << 40) - 1),
            ("999999999999", 999_999_999_999),
            ("000000000064MiB", 64 << 20),
        ]
    )
    func parsesBytes(text: String, bytes: Int) {
        #expect(QuantityText.bytes(text) == bytes)
    }

    @Test(
        "bytes: refuses anything else, and values past 1 TiB",
        arguments: [
            "", " ", "B", "K", "KiB", "MiB", "-1", "-1KiB", "+1", "+1KiB", "1.5MiB", "1.5", "64 MiB", " 64MiB",
            "64MiB ", "64mib", "64kib", "64k", "64m", "64g", "64b", "64KB", "64MB", "64GB", "64TiB", "64T", "64iB",
            "64Ki", "64MiBB", "64BB", "0x40", "1,024", "６４MiB", "6\u{301}4", "1025GiB", "1048577MiB", "1099511627777",
            "1099511627777B", "8589934592GiB", "999999999999999999G", "9999999999999999999",
            "99999999999999999999999999999999999999GiB", "9223372036854775807", "9223372036854775808B",
        ]
    )
    func refusesBytes(text: String) {
        #expect(QuantityText.bytes(text) == nil, "'\(text)' should not parse")
    }

    // MARK: - Describe

    @Test(
        "describe(seconds:) uses the largest unit that divides the value",
        arguments: [
            (0, "0s"),
            (1, "1s"),
            (59, "59s"),
            (60, "1m"),
            (90, "90s"),
            (600, "10m"),
            (3600, "1h"),
            (5400, "90m"),
            (7200, "2h"),
            (86_399, "86399s"),
            (86_400, "1d"),
            (90_000, "25h"),
            (366 * 86_400, "366d"),
        ]
    )
    func describesSeconds(seconds: Int, text: String) {
        #expect(QuantityText.describe(seconds: seconds) == text)
    }

    @Test(
        "describe(bytes:) uses the largest binary unit that divides the value",
        arguments: [
            (0, "0B"),
            (1, "1B"),
            (1000, "1000B"),
            (1023, "1023B"),
            (1024, "1KiB"),
            (1536, "1536B"),
            (1 << 20, "1MiB"),
            (67_108_864, "64MiB"),
            (1536 << 10, "1536KiB"),
            (1 << 30, "1GiB"),
            (3 << 29, "1536MiB"),
            (1 << 40, "1024GiB"),
            ((1 << 40) - 1, "1099511627775B"),
        ]
    )
    func describesBytes(bytes: Int, text: String) {
        #expect(QuantityText.describe(bytes: bytes) == text)
    }

    @Test(
        "seconds parse back from their description",
        arguments: [0, 1, 59, 60, 90, 600, 3599, 3600, 5400, 86_399, 86_400, 90_000, 366 * 86_400 - 1, 366 * 86_400]
    )
    func secondsRoundTrip(seconds: Int) {
        #expect(QuantityText.seconds(QuantityText.describe(seconds: seconds)) == seconds)
    }

    @Test(
        "bytes parse back from their description",
        arguments: [
            0, 1, 1000, 1023, 1024, 1025, 1536 << 10, 1 << 20, 64 << 20, 1 << 30, 4 << 30, 999_999_999_999,
            1_000_000_000_000, (1 << 40) - 1, 1 << 40,
        ]
    )
    func bytesRoundTrip(bytes: Int) {
        #expect(QuantityText.bytes(QuantityText.describe(bytes: bytes)) == bytes)
    }

    @Test("a closed set is offered in its declaration order, its default marked")
    func choices() {
        #expect(QuantityText.choices(ScreenOrder.self, default: .standard) == "key (the default), work or owner")
        #expect(QuantityText.choices(Burndown.Granularity.self, default: .week) == "run, day or week (the default)")
        #expect(QuantityText.choices(HookFormat.self) == "json or slack")
    }
}
