import BarkeepTestSupport
import Testing

@testable import BarkeepServer

/// The SCREEN and STEP commands, now decoded from their specs (BarkeepAPI), refuse bad values with the words the
/// daemon has always used: each refusal whole, over a real daemon.
@Suite("SCREEN and STEP refusals keep their words")
struct ScreenRefusalTests {
    /// A request and its whole reply, after a project `app` with a screen `Inbox` exists.
    static let refusals: [(String, String)] = [
        ("SCREEN LIST app limit=0", "ERR BADARG limit must be a number from 1 to 100000"),
        ("SCREEN LIST app limit=ten", "ERR BADARG limit must be a number from 1 to 100000"),
        ("SCREEN LIST app sort=size", "ERR BADARG sort must be key, work, owner"),
        ("SCREEN LIST app kind=page", "ERR BADARG kind must be screen, component, area"),
        ("SCREEN LIST app not-done=maybe", "ERR BADARG not-done must be yes or no"),
        ("SCREEN LIST app owner=", "ERR BADARG owner= needs a name"),
        ("SCREEN ADD app Menu path=a kind=area", "ERR BADARG kind must be screen or component"),
        (
            "SCREEN ADD app Menu path=a owner=nobody",
            "ERR BADARG 'nobody' is the word for no owner and cannot be a screen's owner; an empty owner removes one"
        ),
        (
            "SCREEN USES app Inbox A,,B",
            "ERR BADARG COMPONENT is a key or a glob, or up to 1000 of them comma-separated"
        ),
        ("SCREEN USES app Inbox Bar remove=maybe", "ERR BADARG remove must be yes or no"),
        ("SCREEN DISMISS app Unlock undo=maybe", "ERR BADARG undo must be yes or no"),
        ("SCREEN EXCLUDE app Tests undo=yes why=x", "ERR BADARG undo=yes takes no why="),
        (
            "SCREEN SET app Inbox",
            "ERR BADARG SCREEN SET needs title=, owner=, path=, add-path=, remove-path=, poses= or kind="
        ),
        ("SCREEN SET app Inbox screens=* owner=x", "ERR BADARG give a screen key or screens=, not both"),
        ("SCREEN SET app owner=x", "ERR BADARG name the screens: a key, or one of screens="),
        (
            "SCREEN SET app Inbox unowned=yes owner=x",
            "ERR BADARG unowned=yes narrows screens=GLOB: give screens= with it"
        ),
        (
            "SCREEN SET app Inbox add-path=a,b",
            "ERR BADARG add-path must be a path glob of up to 1024 bytes without commas or control characters"
        ),
        (
            "SCREEN SET app screens=[x] owner=a",
            "ERR BADARG screens= is a glob of screen keys: 1 to 128 of A-Z a-z 0-9 . _ - * ?"
        ),
        ("SCREEN SET app Inbox kind=area", "ERR BADARG kind must be screen or component"),
        ("SCREEN REMOVE app", "ERR BADARG name the screens: a key, or one of screens="),
        ("SCREEN REMOVE app Inbox dry-run=maybe", "ERR BADARG dry-run must be yes or no"),
        ("STEP SET app 1 done", "ERR BADARG name the screens: a key, or one of screens=, owner=, all=yes"),
        ("STEP SET app 1 done all=no", "ERR BADARG all= must be yes to pick every screen"),
        ("STEP SET app 1 done owner=", "ERR BADARG owner= needs a name"),
        ("STEP SET app Inbox 1 done all=yes", "ERR BADARG give a screen key or all=, not both"),
        ("STEP SET app Inbox 1 finished", "ERR BADARG a step state is todo, done, not_applicable"),
        ("CHECKLIST x", "ERR BADARG CHECKLIST takes no arguments, got 1"),
    ]

    @Test("each bad request gets today's whole refusal, and the connection stays usable")
    func refusals() throws {
        let running = try RunningServer.withDatabase()
        let client = try running.owner()
        #expect(try client.request("PROJECT CREATE app")?.hasPrefix("* name=app") == true)
        #expect(try client.readLine() == "OK count=1")
        #expect(try client.request("SCREEN ADD app Inbox path=Sources/Inbox.swift")?.hasPrefix("* key=Inbox") == true)
        #expect(try client.readLine() == "OK count=1")
        for (request, expected) in Self.refusals {
            #expect(try client.request(request) == expected, "\(request)")
        }
        #expect(try client.request("PING") == "OK PONG")
    }
}
