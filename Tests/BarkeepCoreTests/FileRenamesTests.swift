import BarkeepCore
import Testing

/// Reading and writing the renames of `git diff --name-status --find-renames`.
@Suite("FileRenames")
struct FileRenamesTests {
    @Test("rename lines are read; every other status line, blank lines and CRs are passed over")
    func otherLinesIgnored() throws {
        let text =
            "M\tA.swift\nR100\tOld/B.swift\tNew/B.swift\r\nA\tC.swift\nD\tD.swift\nC075\tE.swift\tF.swift\n"
            + "\nR087\tG.swift\tH.swift"
        let renames = try FileRenames.parse(nameStatus: text)
        #expect(renames.count == 2 && !renames.isEmpty)
        #expect(renames.newPath(of: "Old/B.swift") == "New/B.swift")
        #expect(renames.newPath(of: "G.swift") == "H.swift")
        #expect(renames.newPath(of: "E.swift") == nil && renames.newPath(of: "A.swift") == nil)
        #expect(try FileRenames.parse(nameStatus: "").isEmpty)
    }

    @Test(
        "git's C-quoted paths are decoded",
        arguments: [
            (#"R100\#t"a\tb.swift"\#t"c\"d.swift""#, "a\tb.swift", "c\"d.swift"),
            (#"R100\#t"caf\303\251.swift"\#tplain.swift"#, "café.swift", "plain.swift"),
            (#"R100\#t"back\\slash"\#t"new\nline""#, "back\\slash", "new\nline"),
            ("R100\tcafé.swift\tcafé2.swift", "café.swift", "café2.swift"),
        ])
    func quotedPaths(line: String, old: String, new: String) throws {
        #expect(try FileRenames.parse(nameStatus: line).newPath(of: old) == new)
    }

    @Test(
        "a malformed rename line is refused, naming its line",
        arguments: [
            ("M\tA\nR100\tonly-one-path\n", "renames line 2"), ("Rx\ta\tb", "renames line 1"),
            ("R100\ta\tb\tc", "renames line 1"), ("R100\t\tb", "renames line 1"),
            (#"R100\#t"unterminated\#tb"#, "renames line 1"), (#"R100\#t"bad\qescape"\#tb"#, "renames line 1"),
            (#"R100\#t"\377"\#tb"#, "renames line 1"), ("R100\ta\tb\nR100\ta\tc", "renames line 2"),
            ("R100\ta\tc\nR100\tb\tc", "renames line 2"), ("garbage\nRENAMED a b", "renames line 2"),
        ])
    func malformed(text: String, place: String) {
        #expect {
            try FileRenames.parse(nameStatus: text)
        } throws: { error in
            guard case CoreError.invalidDocument(let path, _) = error else { return false }
            return path == place
        }
    }

    @Test("the same rename twice counts once; a path renamed to itself is no rename; a chain is two renames")
    func repeatsAndChains() throws {
        let renames = try FileRenames.parse(nameStatus: "R100\ta\tb\nR100\ta\tb\nR100\tc\tc\nR090\tb\tz\n")
        #expect(renames.count == 2 && renames.newPath(of: "a") == "b" && renames.newPath(of: "b") == "z")
        #expect(renames.newPath(of: "c") == nil)
    }

    @Test("the text form reads back to the same renames, quoting what git quotes")
    func roundTrip() throws {
        let renames = FileRenames(["a\tb.swift": "c\"d.swift", "x/é.swift": "y/é.swift", "e\u{1}.swift": "f\\g"])
        let text = renames.nameStatusText
        #expect(text.hasPrefix("R100\t"))
        #expect(try FileRenames.parse(nameStatus: text) == renames)
    }

    @Test("git's -z form: NUL-terminated fields, renames and copies with two paths, others with one")
    func nullTerminated() throws {
        let bytes = Array("M\0A.swift\0R100\0a b\0c\td\0C050\0x\0y\0D\0gone\0".utf8)
        let renames = try FileRenames.parse(nullTerminated: bytes)
        #expect(renames == FileRenames(["a b": "c\td"]))
        #expect(throws: CoreError.self) { try FileRenames.parse(nullTerminated: Array("R100\0a\0".utf8)) }
    }

    @Test("more renames or bytes than a list may have are refused")
    func limits() {
        let many = (0...FileRenames.maximumCount).map { "R100\t\($0)\tn\($0)\n" }.joined()
        #expect(throws: CoreError.self) { try FileRenames.parse(nameStatus: many) }
        let long = "R100\ta\t" + String(repeating: "b", count: FileRenames.maximumBytes)
        #expect(throws: CoreError.self) { try FileRenames.parse(nameStatus: long) }
    }
}
