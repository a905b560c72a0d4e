import BarkeepCore
import Testing

@Suite("Pose")
struct PoseTests {
    @Test(
        "a pose is read in any case; nothing else is a pose",
        arguments: [
            ("P1", Pose.p1), ("p1", .p1), ("P16", .p16), ("p10", .p10), ("P0", nil), ("P17", nil), ("P01", nil),
            ("P", nil), ("1", nil), (" P1", nil), ("", nil),
        ] as [(String, Pose?)]
    )
    func parsing(text: String, pose: Pose?) {
        #expect(Pose(text) == pose)
    }

    @Test("the poses are P1 to P16 in order, four of them device-only")
    func vocabulary() {
        #expect(Pose.allCases.map(\.rawValue) == (1...16).map { "P\($0)" })
        #expect(Pose.range == "P1 to P16")
        #expect(Pose.deviceOnlyList == "P10, P13, P14, P16")
        #expect(Pose.defaultRequired.allSatisfy { !$0.isDeviceOnly })
        #expect(Pose.allCases.allSatisfy { !$0.state.isEmpty })
    }
}
