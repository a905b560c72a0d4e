import BarkeepCore
import Testing

@Suite("Role")
struct RoleTests {
    @Test(
        "each role includes the ones before it",
        arguments: [
            (Role.reader, Role.writer),
            (.writer, .admin),
            (.reader, .admin),
        ]
    )
    func ordering(lower: Role, higher: Role) {
        #expect(lower < higher)
        #expect(higher > lower)
        #expect(!(higher < lower))
        #expect(lower != higher)
    }

    @Test("a role is not below itself", arguments: Role.allCases)
    func irreflexive(role: Role) {
        #expect(!(role < role))
        #expect(role >= role)
    }

    @Test("allCases, sorted and raw values run reader, writer, admin")
    func order() {
        #expect(Role.allCases == [.reader, .writer, .admin])
        #expect([Role.admin, .reader, .writer].sorted() == [.reader, .writer, .admin])
        #expect(Role.allCases.map(\.rawValue) == ["reader", "writer", "admin"])
        #expect(Role.allCases.max() == .admin)
        #expect(Role.allCases.min() == .reader)
    }

    @Test("raw values parse back", arguments: Role.allCases)
    func rawValueRoundTrip(role: Role) {
        #expect(Role(rawValue: role.rawValue) == role)
    }

    @Test("unknown raw values are refused", arguments: ["", "Admin", "root", "read", " reader"])
    func unknownRawValue(text: String) {
        #expect(Role(rawValue: text) == nil)
    }
}
