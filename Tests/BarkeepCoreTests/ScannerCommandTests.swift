import BarkeepCore
import Testing

@Suite("ScannerCommand")
struct ScannerCommandTests {
    static let expansions: [(template: String, root: String, expanded: String)] = [
        ("scan {root}", "/srv/repo", "scan '/srv/repo'"),
        ("scan {root} --out {root}/out", "/a", "scan '/a' --out '/a'/out"),
        ("scan .", "/srv/repo", "scan ."),
        ("", "/srv", ""),
        ("{root}", "/with space", "'/with space'"),
        ("cd {root}", "/it's", #"cd '/it'\''s'"#),
        ("cd {root}", "/$(rm -rf ~)`x`;\"y\"", "cd '/$(rm -rf ~)`x`;\"y\"'"),
        ("cd {root}", "/line\nbreak", "cd '/line\nbreak'"),
        ("cd {root}", "/caf\u{E9}", "cd '/caf\u{E9}'"),
        ("{ROOT} {root", "/a", "{ROOT} {root"),
        ("{root}{root}", "/a", "'/a''/a'"),
    ]

    @Test("{root} becomes one single-quoted shell word", arguments: expansions)
    func expand(template: String, root: String, expanded: String) {
        #expect(ScannerCommand.expand(template, root: root) == expanded)
    }

    @Test("a quote followed by a combining mark is still escaped")
    func quoteWithCombiningMark() {
        // One Character, "'" plus U+0301: comparing Characters would let the quote through unescaped.
        #expect(ScannerCommand.quoted("a'\u{301}b") == "'a'\\''\u{301}b'")
    }

    static let environments: [(daemon: [String: String], extra: [String: String], expected: [String: String])] = [
        ([:], [:], ["PATH": "/usr/local/bin:/usr/bin:/bin"]),
        (["PATH": ""], [:], ["PATH": "/usr/local/bin:/usr/bin:/bin"]),
        (
            ["PATH": "/opt/bin", "HOME": "/root", "BARKEEP_TOKEN": "secret", "PGPASSWORD": "x", "LANG": "C.UTF-8"],
            [:],
            ["PATH": "/opt/bin", "HOME": "/root", "LANG": "C.UTF-8"]
        ),
        (
            ["LC_ALL": "C", "LC_CTYPE": "C", "TZ": "UTC", "TMPDIR": "/t", "USER": "u", "LOGNAME": "u", "SHELL": "/x"],
            ["BARKEEP_ROOT": "/w"],
            [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "LC_CTYPE": "C", "TZ": "UTC", "TMPDIR": "/t",
                "USER": "u", "LOGNAME": "u", "BARKEEP_ROOT": "/w",
            ]
        ),
        (
            ["PATH": "/opt/bin", "HOME": "/root"], ["PATH": "/custom", "HOME": "/h"], ["PATH": "/custom", "HOME": "/h"]
        ),
        (["path": "/lower"], [:], ["PATH": "/usr/local/bin:/usr/bin:/bin"]),
    ]

    @Test("only allow-listed variables pass, PATH has a default, extra wins", arguments: environments)
    func environment(daemon: [String: String], extra: [String: String], expected: [String: String]) {
        #expect(ScannerCommand.environment(from: daemon, adding: extra) == expected)
    }

    @Test("the allow-list is exactly the documented one")
    func allowList() {
        #expect(
            ScannerCommand.allowedVariables == [
                "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "USER", "LOGNAME",
            ]
        )
    }
}
