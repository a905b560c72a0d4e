import BarkeepCore
import Testing

@Suite("one selection rule: each row takes what its kind allows")
struct ScreenAspectTests {
    @Test(
        "which kinds take which aspects",
        arguments: [
            (ScreenAspect.owner, ScreenKind.screen, true), (.owner, .component, true), (.owner, .area, true),
            (.poses, .screen, true), (.poses, .component, false), (.poses, .area, false),
            (.steps, .screen, true), (.steps, .component, false), (.steps, .area, false),
            (.poseResults, .screen, true), (.poseResults, .component, false), (.poseResults, .area, false),
            (.removal, .screen, true), (.removal, .component, true), (.removal, .area, false),
        ])
    func kinds(_ aspect: ScreenAspect, _ kind: ScreenKind, _ isTaken: Bool) {
        #expect((aspect.refusal(for: kind, key: "Row") == nil) == isTaken)
    }

    @Test("a glob skips in part or whole and is never refused; a key that cannot take it all is")
    func treatments() throws {
        let rows: [(key: String, kind: ScreenKind)] = [("DebugMenu", .screen), ("DebugRow", .component)]
        let glob = ScreenSelection.keys(try #require(KeyGlob("Debug*")))
        let treated = glob.treatments(of: rows, aspects: [.owner, .poses])
        #expect(treated.map(\.applied) == [[.owner, .poses], [.owner]])
        #expect(treated.map(\.skipped) == [[], [.poses]])
        #expect(treated[1].reason == "DebugRow is a component: the screens that use it are verified in poses")
        #expect(!treated[1].isSkipped && glob.refusal(of: treated) == nil)
        #expect(glob.treatments(of: rows, aspects: [.steps])[1].isSkipped)

        let key = ScreenSelection.key("DebugRow")
        let one = key.treatments(of: [rows[1]], aspects: [.owner, .poses])
        #expect(key.refusal(of: one) == one[0].reason && one[0].reason != nil)
        #expect(key.refusal(of: key.treatments(of: [rows[1]], aspects: [.owner])) == nil)
    }
}
