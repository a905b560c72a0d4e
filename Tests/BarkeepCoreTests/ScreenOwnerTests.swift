import BarkeepCore
import Testing

@Suite("No owner")
struct ScreenOwnerTests {
    @Test("nobody is the one spelling of no owner, in any case; a name matches itself only")
    func owners() {
        #expect(ScreenOwner.matches(nil, filter: "nobody"))
        #expect(ScreenOwner.matches(nil, filter: "Nobody"))
        #expect(!ScreenOwner.matches("ana", filter: "nobody"))
        #expect(!ScreenOwner.matches(nil, filter: "none"))
        #expect(ScreenOwner.matches("ana", filter: "ana"))
        #expect(!ScreenOwner.matches("Ana", filter: "ana"))
        #expect(ScreenOwner.display(nil) == "nobody" && ScreenOwner.display("ana") == "ana")
        let nobody = ScreenListing(owner: "nobody")
        #expect(nobody.includes(.init(key: "A", kind: .screen, owner: nil, isDone: false, needsWork: 0)))
        #expect(nobody.includes(.init(key: "C", kind: .component, owner: nil, isDone: false, needsWork: 0)))
        #expect(!nobody.includes(.init(key: "app", kind: .area, owner: nil, isDone: true, needsWork: 0)))
    }

    @Test("a bulk selection reads owner=nobody as every other owner filter does")
    func selections() {
        let bulk = ScreenSelection.owner("nobody")
        #expect(bulk.includes(key: "A", owner: nil) && !bulk.includes(key: "B", owner: "ana"))
        #expect(ScreenSelection.owner("ana").includes(key: "B", owner: "ana"))
        #expect(!ScreenSelection.owner("ana").includes(key: "A", owner: nil))
    }

    @Test("nobody, in any case, cannot be given as an owner; a person's name can")
    func reserved() {
        #expect(ScreenOwner.refusal(ofOwner: "NoBody")?.contains("the word for no owner") == true)
        #expect(ScreenOwner.refusal(ofOwner: "ana") == nil)
        #expect(ScreenOwner.refusal(ofOwner: "") == nil)
    }
}
