import BarkeepCore
import Testing

@Suite("InboxLocation")
struct InboxLocationTests {
    @Test(
        "system and shared directories, the data directory and foreign directories are refused",
        arguments: [
            ("/", 0, "shared by the whole system"),
            ("/home", 0, "shared by the whole system"),
            ("/etc", 0, "in the system directory /etc"),
            ("/etc/barkeep", 0, "in the system directory /etc"),
            ("/lib64/x", 0, "in the system directory /lib64"),
            ("/var/lib/postgresql/16/main", 0, "in the system directory /var/lib/postgresql"),
            ("/srv/barkeep", 0, "in the daemon's data directory /srv/barkeep"),
            ("/srv/barkeep/pg/base", 0, "in the daemon's data directory /srv/barkeep"),
            ("/srv/drop", 1000, "belongs to uid 1000, not to the daemon's user (uid 0)"),
        ] as [(String, UInt32, String)]
    )
    func refused(path: String, owner: UInt32, reason: String) {
        let problem = InboxLocation.problem(path: path, ownerUID: owner, daemonUID: 0, protected: ["/srv/barkeep"])
        #expect(problem?.hasSuffix(reason) == true, "\(problem ?? "nil")")
    }

    @Test("a directory of the daemon's user outside those places is accepted", arguments: ["/srv/drop", "/home/ci/in"])
    func accepted(path: String) {
        #expect(InboxLocation.problem(path: path, ownerUID: 0, daemonUID: 0, protected: ["/srv/barkeep"]) == nil)
        #expect(
            InboxLocation.problem(path: path, ownerUID: 0, daemonUID: 0, protected: ["/srv/barkeep-other"]) == nil)
    }
}
