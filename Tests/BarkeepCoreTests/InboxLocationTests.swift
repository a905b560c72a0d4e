import BarkeepCore
import Testing

@Suite("InboxLocation")
struct InboxLocationTests {
    private func problem(_ path: String, owner: UInt32 = 0) -> String? {
        InboxLocation.problem(
            path: path, ownerUID: owner, daemonUID: 0, homes: ["/root"], protected: ["/srv/barkeep"])
    }

    @Test(
        "system trees, shared directories, a home's configuration, the data directory and foreign ones are refused",
        arguments: [
            ("/", 0, "the inbox / is a directory shared by the whole system"),
            ("/home", 0, "the inbox /home is a directory shared by the whole system"),
            ("/srv", 0, "the inbox /srv is a directory shared by the whole system"),
            ("/etc", 0, "the inbox /etc is in the system directory /etc"),
            ("/etc/barkeep", 0, "the inbox /etc/barkeep is in the system directory /etc"),
            ("/lib64/x", 0, "the inbox /lib64/x is in the system directory /lib64"),
            ("/var/lib/dpkg", 0, "the inbox /var/lib/dpkg is in the system directory /var/lib"),
            ("/var/lib/apt", 0, "the inbox /var/lib/apt is in the system directory /var/lib"),
            (
                "/var/lib/postgresql/16/main", 0,
                "the inbox /var/lib/postgresql/16/main is in the system directory /var/lib"
            ),
            ("/var/backups", 0, "the inbox /var/backups is in the system directory /var/backups"),
            ("/boot/efi", 0, "the inbox /boot/efi is in the system directory /boot"),
            ("/run/user/0", 0, "the inbox /run/user/0 is in the system directory /run"),
            (
                "/root/.config", 0,
                "the inbox /root/.config is in /root/.config, a configuration directory of the daemon user's home"
            ),
            (
                "/root/.ssh/keys", 0,
                "the inbox /root/.ssh/keys is in /root/.ssh, a configuration directory of the daemon user's home"
            ),
            ("/srv/barkeep", 0, "the inbox /srv/barkeep is in the daemon's data directory /srv/barkeep"),
            (
                "/srv/barkeep/pg/base", 0,
                "the inbox /srv/barkeep/pg/base is in the daemon's data directory /srv/barkeep"
            ),
            ("/srv/drop", 1000, "the inbox /srv/drop belongs to uid 1000, not to the daemon's user (uid 0)"),
        ] as [(String, UInt32, String)]
    )
    func refused(path: String, owner: UInt32, reason: String) {
        #expect(problem(path, owner: owner) == reason)
    }

    @Test("a directory of the daemon's user outside those places is accepted", arguments: ["/srv/drop", "/root/drop"])
    func accepted(path: String) {
        #expect(problem(path) == nil)
        #expect(
            InboxLocation.problem(
                path: path, ownerUID: 0, daemonUID: 0, homes: ["/root"], protected: ["/srv/barkeep-other"]) == nil)
    }

    @Test("the user's home itself and a directory above the data directory are refused")
    func homesAndAncestors() {
        #expect(
            InboxLocation.problem(path: "/home/ci", ownerUID: 7, daemonUID: 7, homes: ["/home/ci"], protected: [])
                == "the inbox /home/ci is the daemon user's home directory")
        #expect(
            InboxLocation.problem(
                path: "/home/ci/.cache/in", ownerUID: 7, daemonUID: 7, homes: ["/home/ci"], protected: [])
                == "the inbox /home/ci/.cache/in is in /home/ci/.cache, a configuration directory of the daemon "
                + "user's home")
        #expect(
            InboxLocation.problem(
                path: "/data", ownerUID: 0, daemonUID: 0, homes: ["/root"], protected: ["/data/team/.barkeep"])
                == "the inbox /data holds the daemon's data directory /data/team/.barkeep")
        // A name that only starts like the data directory is not inside it.
        #expect(
            InboxLocation.problem(
                path: "/data/team/.barkeep-in", ownerUID: 0, daemonUID: 0, homes: [], protected: ["/data/team/.barkeep"]
            )
                == nil)
    }

    @Test("a data directory's marker is named with where it was found")
    func dataDirectoryProblems() {
        #expect(
            InboxLocation.dataDirectoryProblem(inbox: "/d", directory: "/d", marker: DataDirectory.lockFileName)
                == "the inbox /d is a data directory of barkeepd: /d has barkeepd.lock")
        #expect(
            InboxLocation.dataDirectoryProblem(inbox: "/d/failed", directory: "/d", marker: "pg/PG_VERSION")
                == "the inbox /d/failed is in a data directory of barkeepd: /d has pg/PG_VERSION")
        #expect(
            InboxLocation.dataDirectoryProblem(inbox: "/data", directory: "/data/a/main", marker: "PG_VERSION")
                == "the inbox /data holds a PostgreSQL cluster's directory: /data/a/main has PG_VERSION")
        #expect(DataDirectory.markers.contains(DataDirectory.lockFileName))
        #expect(DataDirectory.markers.contains("pg/PG_VERSION"))
        #expect(DataDirectory.markers.contains("postmaster.pid"))
    }
}
