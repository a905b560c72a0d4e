import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

@Suite("SARIFParser")
struct SARIFParserTests {
    // MARK: - Real scanner output

    @Test("the fixtures are there: 3 NetNewsWire logs and the small one")
    func fixturesFound() {
        #expect(Fixtures.directory != nil)
        #expect(Fixtures.sarifFiles.count == 4)
    }

    @Test("every fixture round-trips ruleId, uri, startLine and snippet in order", arguments: Fixtures.sarifFiles)
    func roundTrip(path: String) throws {
        let report = try SARIFParser.parse(try Fixtures.bytes(path))
        let json = try Fixtures.json(path)
        let runs = try #require(json["runs"] as? [[String: Any]])
        var expected: [(rule: String, file: String, line: Int, snippet: String)] = []
        for run in runs {
            for result in try #require(run["results"] as? [[String: Any]]) {
                let locations = try #require(result["locations"] as? [[String: Any]])
                let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
                let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
                let region = try #require(physical["region"] as? [String: Any])
                expected.append(
                    (
                        try #require(result["ruleId"] as? String), uri, try #require(region["startLine"] as? Int),
                        try #require((region["snippet"] as? [String: Any])?["text"] as? String)
                    )
                )
            }
        }

        #expect(report.format == .sarif)
        #expect(report.tool == "Semgrep OSS")
        #expect(report.toolVersion == "1.185.0")
        #expect(report.filesScanned == nil)
        #expect(report.lifecycle == nil)
        try #require(report.findings.count == expected.count)
        #expect(!expected.isEmpty)
        for (finding, want) in zip(report.findings, expected) {
            #expect(finding.rule == want.rule)
            #expect(finding.file == want.file)
            #expect(finding.line == want.line)
            #expect(finding.snippet == want.snippet)
            #expect(finding.title == "Semgrep Finding: \(want.rule)")
            #expect(finding.fingerprints == #"{"fingerprints":{"matchBasedId/v1":"requires login"}}"#)
        }
    }

    @Test("the small fixture, field by field")
    func smallFixture() throws {
        let report = try SARIFParser.parse(try Fixtures.bytes("sarif/small/duo-rules-fixture.sarif"))
        #expect(report.findings.map(\.rule) == ["DUO007", "DUO007", "DUO011", "DUO011", "DUO011", "DUO011"])
        #expect(report.findings.map(\.line) == [3, 4, 8, 9, 14, 15])
        // No result has a level: the rules' defaults apply (DUO007 warning, DUO011 note).
        #expect(report.findings.map(\.severity) == ["medium", "medium", "low", "low", "low", "low"])
        let first = try #require(report.findings.first)
        #expect(
            first
                == ScanFinding(
                    rule: "DUO007",
                    title: "Semgrep Finding: DUO007",
                    severity: "medium",
                    file: "fixture/Fixture.swift",
                    line: 3,
                    snippet: "let t = UIToolbar()",
                    message: "Standalone bar instance: content of custom UIToolbar, UINavigationBar and UITabBar "
                        + "instances is not considered for vertical bars on iPhone Duo. Move items to "
                        + "UINavigationController / UITabBarController (SwiftUI: .toolbar inside NavigationStack or "
                        + "NavigationSplitView).",
                    fingerprints: #"{"fingerprints":{"matchBasedId/v1":"requires login"}}"#
                )
        )
        // The snippet keeps its indentation.
        #expect(report.findings[2].snippet == #"    Menu { Text("a") } label: { Image(systemName: "ellipsis") }"#)
    }

    @Test("NetNewsWire keeps tabs in snippets")
    func tabsKept() throws {
        let report = try SARIFParser.parse(try Fixtures.bytes("sarif/NetNewsWire/14-834decfa.sarif"))
        #expect(report.findings.count == 1)
        #expect(report.findings.first?.file == "iOS/MainFeed/MainFeedCollectionViewController.swift")
        #expect(report.findings.first?.line == 268)
        #expect(report.findings.first?.snippet == "\t\t\t\tmoreAction.image = UIImage(systemName: \"ellipsis\")")
    }

    @Test("every truncation of a real log is refused as not valid JSON")
    func truncations() throws {
        let bytes = try Fixtures.bytes("sarif/NetNewsWire/07-1caaf3c1.sarif")
        let end = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        for length in 0..<end {
            do {
                _ = try SARIFParser.parse(Array(bytes[..<length]))
                Issue.record("a prefix of \(length) bytes parsed")
            } catch {
                guard case .invalidDocument(let path, let problem) = error, path.isEmpty,
                    problem.hasPrefix("not valid JSON (")
                else {
                    Issue.record("a prefix of \(length) bytes: \(error)")
                    continue
                }
            }
        }
    }

    // MARK: - Mapping

    /// A result's level (JSON text, nil for none) and its rule's default level → severity.
    static let levels: [(level: String?, ruleDefault: String?, severity: String)] = [
        (#""error""#, nil, "high"),
        (#""warning""#, nil, "medium"),
        (#""note""#, nil, "low"),
        (#""none""#, nil, "info"),
        (nil, nil, "medium"),
        (nil, #""error""#, "high"),
        (nil, #""note""#, "low"),
        (nil, #""none""#, "info"),
        (#""note""#, #""error""#, "low"),
        ("null", #""error""#, "high"),
    ]

    @Test("levels map to severities", arguments: levels)
    func level(level: String?, ruleDefault: String?, severity: String) throws {
        let configuration = ruleDefault.map { #","defaultConfiguration":{"level":\#($0)}"# } ?? ""
        let rules = #"[{"id":"R1"\#(configuration)}]"#
        let result = level.map { #"{"ruleId":"R1","level":\#($0)}"# } ?? #"{"ruleId":"R1"}"#
        let report = try SARIFParser.parse(Self.log(results: [result], rules: rules))
        #expect(report.findings.map(\.severity) == [severity])
    }

    /// A result (JSON text) → the file, line and snippet the parser reads from it.
    static let places: [(name: String, result: String, file: String, line: Int, snippet: String)] = [
        (
            "plain", result(uri: "Sources/A.swift", region: #"{"startLine":7,"snippet":{"text":"  x"}}"#),
            "Sources/A.swift", 7, "  x"
        ),
        ("leading ./", result(uri: "./Sources/A.swift"), "Sources/A.swift", 3, "x"),
        ("several ./", result(uri: "././A.swift"), "A.swift", 3, "x"),
        ("percent-encoded", result(uri: "My%20App/%C3%9Cber.swift"), "My App/Über.swift", 3, "x"),
        ("invalid percent-encoding kept", result(uri: "100%.swift"), "100%.swift", 3, "x"),
        ("encoded ./ decoded first", result(uri: "%2E/A.swift"), "A.swift", 3, "x"),
        ("a ./ inside stays", result(uri: "a/./b.swift"), "a/./b.swift", 3, "x"),
        ("no region", result(uri: "A.swift", region: nil), "A.swift", 1, ""),
        ("region without startLine", result(uri: "A.swift", region: #"{"charOffset":10}"#), "A.swift", 1, ""),
        ("region without snippet", result(uri: "A.swift", region: #"{"startLine":4}"#), "A.swift", 4, ""),
        ("no locations", #"{"ruleId":"R1"}"#, "", 1, ""),
        ("empty locations", #"{"ruleId":"R1","locations":[]}"#, "", 1, ""),
        (
            "only a logical location", #"{"ruleId":"R1","locations":[{"logicalLocations":[{"name":"f"}]}]}"#, "", 1,
            ""
        ),
        (
            "no artifactLocation", #"{"ruleId":"R1","locations":[{"physicalLocation":{"region":{"startLine":5}}}]}"#,
            "", 5, ""
        ),
        (
            "the first location wins",
            #"{"ruleId":"R1","locations":[{"physicalLocation":{"artifactLocation":{"uri":"A.swift"}}},"#
                + #"{"physicalLocation":{"artifactLocation":{"uri":"B.swift"},"region":{"startLine":9}}}]}"#,
            "A.swift", 1, ""
        ),
    ]

    @Test("the first physical location gives file, line and snippet", arguments: places)
    func place(name: String, result: String, file: String, line: Int, snippet: String) throws {
        let finding = try #require(try SARIFParser.parse(Self.log(results: [result])).findings.first)
        #expect(finding.file == file, "\(name)")
        #expect(finding.line == line, "\(name)")
        #expect(finding.snippet == snippet, "\(name)")
    }

    /// A result (JSON text) → rule, title; the driver lists R1 (short description), R2 (name only), R3 (neither).
    static let ruleReferences: [(name: String, result: String, rule: String, title: String?)] = [
        ("ruleId", #"{"ruleId":"R1"}"#, "R1", "Short R1"),
        ("name when no short description", #"{"ruleId":"R2"}"#, "R2", "Name R2"),
        ("neither", #"{"ruleId":"R3"}"#, "R3", nil),
        ("a rule the driver does not list", #"{"ruleId":"X9"}"#, "X9", nil),
        ("rule.id", #"{"rule":{"id":"R2"}}"#, "R2", "Name R2"),
        ("ruleIndex alone", #"{"ruleIndex":1}"#, "R2", "Name R2"),
        ("rule.index alone", #"{"rule":{"index":0}}"#, "R1", "Short R1"),
        ("ruleId with ruleIndex", #"{"ruleId":"R1/sub","ruleIndex":0}"#, "R1/sub", "Short R1"),
        ("ruleIndex -1 means none", #"{"ruleId":"R2","ruleIndex":-1}"#, "R2", "Name R2"),
    ]

    @Test("the rule is found by id or index", arguments: ruleReferences)
    func ruleReference(name: String, result: String, rule: String, title: String?) throws {
        let rules =
            #"[{"id":"R1","name":"Name R1","shortDescription":{"text":"Short R1"}},"#
            + #"{"id":"R2","name":"Name R2"},{"id":"R3"}]"#
        let finding = try #require(try SARIFParser.parse(Self.log(results: [result], rules: rules)).findings.first)
        #expect(finding.rule == rule, "\(name)")
        #expect(finding.title == title, "\(name)")
    }

    /// A result's fingerprint members (JSON text) → the kept text.
    static let fingerprints: [(members: String, text: String?)] = [
        ("", nil),
        (#","fingerprints":null"#, nil),
        (
            #","fingerprints":{"matchBasedId/v1":"requires login"}"#,
            #"{"fingerprints":{"matchBasedId/v1":"requires login"}}"#
        ),
        (#","partialFingerprints":{"b":"2","a":"1"}"#, #"{"partialFingerprints":{"a":"1","b":"2"}}"#),
        (
            #","partialFingerprints":{"p":"1"},"fingerprints":{"f":"2"}"#,
            #"{"fingerprints":{"f":"2"},"partialFingerprints":{"p":"1"}}"#
        ),
        (#","fingerprints":{}"#, #"{"fingerprints":{}}"#),
        (
            #","fingerprints":{"k":"quote \" slash / newline \n tab \t ✓"}"#,
            #"{"fingerprints":{"k":"quote \" slash / newline \n tab \t ✓"}}"#
        ),
    ]

    @Test("fingerprints are kept as compact JSON with sorted keys", arguments: fingerprints)
    func fingerprint(members: String, text: String?) throws {
        let result = #"{"ruleId":"R1""# + members + "}"
        let finding = try #require(try SARIFParser.parse(Self.log(results: [result])).findings.first)
        #expect(finding.fingerprints == text)
        if let kept = finding.fingerprints {
            // The kept text is itself valid JSON.
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(kept.utf8)) }
        }
    }

    @Test("runs of one tool are concatenated; runs of different tools are refused")
    func severalRuns() throws {
        let document =
            #"{"version":"2.1.0","runs":["#
            + #"{"tool":{"driver":{"name":"First","version":"1.0","semanticVersion":"1.0.0"}},"#
            + #""results":[{"ruleId":"A"},{"ruleId":"B"}]},"#
            + #"{"tool":{"driver":{"name":"First","version":"9"}},"results":[]},"#
            + #"{"tool":{"driver":{"name":"First"}},"results":[{"ruleId":"C"}]}]}"#
        let report = try SARIFParser.parse(Array(document.utf8))
        #expect(report.tool == "First")
        #expect(report.toolVersion == "1.0")
        #expect(report.findings.map(\.rule) == ["A", "B", "C"])

        let mixed = document.replacingOccurrences(of: #"{"name":"First","version":"9"}"#, with: #"{"name":"Second"}"#)
        #expect {
            try SARIFParser.parse(Array(mixed.utf8))
        } throws: { error in
            guard case CoreError.invalidDocument(let path, _) = error else { return false }
            return path == "runs[1].tool.driver.name"
        }
    }

    @Test("version from semanticVersion when the driver has no version; nil with neither")
    func toolVersion() throws {
        let semantic =
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","semanticVersion":"1.185.0"}},"#
            + #""results":[]}]}"#
        #expect(try SARIFParser.parse(Array(semantic.utf8)).toolVersion == "1.185.0")
        let bare = #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[]}]}"#
        let report = try SARIFParser.parse(Array(bare.utf8))
        #expect(report.toolVersion == nil)
        #expect(report.findings.isEmpty)
    }

    // MARK: - Refused documents

    @Test("other SARIF versions are unsupported", arguments: ["2.0.0", "1.0.0", "2.1", "2.1.0-rtm.5", ""])
    func otherVersion(version: String) {
        let document = #"{"version":"\#(version)","runs":[]}"#
        #expect(throws: CoreError.unsupportedVersion("SARIF \(version)")) {
            try SARIFParser.parse(Array(document.utf8))
        }
    }

    /// Documents that are JSON but not a readable SARIF 2.1.0 log, with the exact place and problem.
    static let refused: [(name: String, document: String, path: String, problem: String)] = [
        ("top level is an array", "[]", "", "expected an object"),
        ("version missing", #"{"runs":[]}"#, "version", "missing"),
        ("version a number", #"{"version":2.1,"runs":[]}"#, "version", "expected a string"),
        ("runs missing", #"{"version":"2.1.0"}"#, "runs", "missing"),
        ("runs an object", #"{"version":"2.1.0","runs":{}}"#, "runs", "expected an array"),
        ("no runs", #"{"version":"2.1.0","runs":[]}"#, "runs", "expected at least one run"),
        ("a run is a string", #"{"version":"2.1.0","runs":["x"]}"#, "runs[0]", "expected an object"),
        ("tool missing", #"{"version":"2.1.0","runs":[{"results":[]}]}"#, "runs[0].tool", "missing"),
        (
            "driver missing", #"{"version":"2.1.0","runs":[{"tool":{},"results":[]}]}"#, "runs[0].tool.driver",
            "missing"
        ),
        (
            "driver name missing", #"{"version":"2.1.0","runs":[{"tool":{"driver":{}},"results":[]}]}"#,
            "runs[0].tool.driver.name", "missing"
        ),
        (
            "driver version a number",
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","version":1}},"results":[]}]}"#,
            "runs[0].tool.driver.version", "expected a string"
        ),
        (
            "rules an object", String(decoding: log(results: [], rules: "{}"), as: UTF8.self),
            "runs[0].tool.driver.rules", "expected an array"
        ),
        (
            "a rule without id",
            String(decoding: log(results: [], rules: #"[{"id":"R1"},{"name":"R2"}]"#), as: UTF8.self),
            "runs[0].tool.driver.rules[1].id", "missing"
        ),
        (
            "a rule's default level outside the list",
            String(
                decoding: log(results: [], rules: #"[{"id":"R1","defaultConfiguration":{"level":"fatal"}}]"#),
                as: UTF8.self),
            "runs[0].tool.driver.rules[0].defaultConfiguration.level", "expected one of error, warning, note, none"
        ),
        (
            "a rule's short description a string",
            String(decoding: log(results: [], rules: #"[{"id":"R1","shortDescription":"S"}]"#), as: UTF8.self),
            "runs[0].tool.driver.rules[0].shortDescription", "expected an object"
        ),
        (
            "results missing (the tool failed)", #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}}}]}"#,
            "runs[0].results", "missing"
        ),
        (
            "results null", #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":null}]}"#,
            "runs[0].results", "missing"
        ),
        ("a result is a number", text(results: ["1"]), "runs[0].results[0]", "expected an object"),
        ("ruleId missing", text(results: [#"{"message":{"text":"m"}}"#]), "runs[0].results[0].ruleId", "missing"),
        ("ruleId a number", text(results: [#"{"ruleId":7}"#]), "runs[0].results[0].ruleId", "expected a string"),
        (
            "rule.id a number", text(results: [#"{"rule":{"id":7}}"#]), "runs[0].results[0].rule.id",
            "expected a string"
        ),
        ("rule a string", text(results: [#"{"rule":"R1"}"#]), "runs[0].results[0].rule", "expected an object"),
        (
            "ruleIndex past the rules", text(results: [#"{"ruleId":"R1","ruleIndex":5}"#]),
            "runs[0].results[0].ruleIndex", "expected an index into tool.driver.rules"
        ),
        (
            "ruleIndex below -1", text(results: [#"{"ruleId":"R1","ruleIndex":-2}"#]), "runs[0].results[0].ruleIndex",
            "expected an integer of at least -1"
        ),
        (
            "rule.index true", text(results: [#"{"rule":{"index":true}}"#]), "runs[0].results[0].rule.index",
            "expected an integer"
        ),
        (
            "rule.index past the rules", text(results: [#"{"rule":{"id":"R1","index":1}}"#]),
            "runs[0].results[0].rule.index", "expected an index into tool.driver.rules"
        ),
        (
            "level outside the list", text(results: valid(3) + [#"{"ruleId":"R1","level":"critical"}"#]),
            "runs[0].results[3].level", "expected one of error, warning, note, none"
        ),
        (
            "level a number", text(results: [#"{"ruleId":"R1","level":2}"#]), "runs[0].results[0].level",
            "expected a string"
        ),
        (
            "message a string", text(results: [#"{"ruleId":"R1","message":"m"}"#]), "runs[0].results[0].message",
            "expected an object"
        ),
        (
            "message text a number", text(results: [#"{"ruleId":"R1","message":{"text":3}}"#]),
            "runs[0].results[0].message.text", "expected a string"
        ),
        (
            "locations an object", text(results: [#"{"ruleId":"R1","locations":{}}"#]),
            "runs[0].results[0].locations", "expected an array"
        ),
        (
            "a location a string", text(results: [#"{"ruleId":"R1","locations":["A.swift"]}"#]),
            "runs[0].results[0].locations[0]", "expected an object"
        ),
        (
            "physicalLocation an array", text(results: [#"{"ruleId":"R1","locations":[{"physicalLocation":[]}]}"#]),
            "runs[0].results[0].locations[0].physicalLocation", "expected an object"
        ),
        (
            "artifactLocation a string",
            text(results: [#"{"ruleId":"R1","locations":[{"physicalLocation":{"artifactLocation":"A"}}]}"#]),
            "runs[0].results[0].locations[0].physicalLocation.artifactLocation", "expected an object"
        ),
        (
            "uri missing", text(results: valid(3) + [result(uri: nil)]),
            "runs[0].results[3].locations[0].physicalLocation.artifactLocation.uri", "missing"
        ),
        (
            "uri a number", text(results: valid(3) + [result(uriJSON: "5")]),
            "runs[0].results[3].locations[0].physicalLocation.artifactLocation.uri", "expected a string"
        ),
        (
            "region a string", text(results: [result(uri: "A.swift", region: #""3""#)]),
            "runs[0].results[0].locations[0].physicalLocation.region", "expected an object"
        ),
        (
            "startLine a string", text(results: [result(uri: "A.swift", region: #"{"startLine":"3"}"#)]),
            "runs[0].results[0].locations[0].physicalLocation.region.startLine", "expected an integer"
        ),
        (
            "startLine true", text(results: [result(uri: "A.swift", region: #"{"startLine":true}"#)]),
            "runs[0].results[0].locations[0].physicalLocation.region.startLine", "expected an integer"
        ),
        (
            "startLine 12.5", text(results: [result(uri: "A.swift", region: #"{"startLine":12.5}"#)]),
            "runs[0].results[0].locations[0].physicalLocation.region.startLine", "expected an integer"
        ),
        (
            "startLine 0", text(results: [result(uri: "A.swift", region: #"{"startLine":0}"#)]),
            "runs[0].results[0].locations[0].physicalLocation.region.startLine", "expected a positive integer"
        ),
        (
            "startLine 2^31", text(results: [result(uri: "A.swift", region: #"{"startLine":2147483648}"#)]),
            "runs[0].results[0].locations[0].physicalLocation.region.startLine",
            "expected an integer of at most 2147483647"
        ),
        (
            "snippet a string", text(results: [result(uri: "A.swift", region: #"{"startLine":1,"snippet":"x"}"#)]),
            "runs[0].results[0].locations[0].physicalLocation.region.snippet", "expected an object"
        ),
        (
            "snippet text a number",
            text(results: [result(uri: "A.swift", region: #"{"startLine":1,"snippet":{"text":1}}"#)]),
            "runs[0].results[0].locations[0].physicalLocation.region.snippet.text", "expected a string"
        ),
        (
            "partialFingerprints a string", text(results: [#"{"ruleId":"R1","partialFingerprints":"h"}"#]),
            "runs[0].results[0].partialFingerprints", "expected an object"
        ),
        (
            "a partial fingerprint a number",
            text(results: [#"{"ruleId":"R1","partialFingerprints":{"primaryLocationLineHash":1}}"#]),
            "runs[0].results[0].partialFingerprints.primaryLocationLineHash", "expected a string"
        ),
        (
            "a fingerprint key that is no identifier", text(results: [#"{"ruleId":"R1","fingerprints":{"a/v1":[]}}"#]),
            #"runs[0].results[0].fingerprints["a/v1"]"#, "expected a string"
        ),
        (
            "a problem in the second run",
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[]},"#
                + #"{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R1","level":"fatal"}]}]}"#,
            "runs[1].results[0].level", "expected one of error, warning, note, none"
        ),
    ]

    @Test("refused documents name the place and the problem", arguments: refused)
    func refusedDocument(name: String, document: String, path: String, problem: String) {
        let error = #expect(throws: CoreError.self, "\(name)") { try SARIFParser.parse(Array(document.utf8)) }
        guard case .invalidDocument(let actualPath, let actualProblem) = error else {
            Issue.record("\(name): \(String(describing: error))")
            return
        }
        #expect(actualPath == path, "\(name)")
        #expect(actualProblem == problem, "\(name)")
    }

    @Test("not JSON: empty path, not valid JSON", arguments: ["", "SARIF", #"{"version":"2.1.0","runs":["#, "{]"])
    func notJSON(text: String) {
        let error = #expect(throws: CoreError.self) { try SARIFParser.parse(Array(text.utf8)) }
        guard case .invalidDocument(let path, let problem) = error else {
            Issue.record("unexpected error: \(String(describing: error))")
            return
        }
        #expect(path == "")
        #expect(problem.hasPrefix("not valid JSON ("), "\(problem)")
    }

    static let duplicates: [(document: String, path: String)] = [
        (#"{"version":"2.1.0","version":"2.1.0","runs":[]}"#, "version"),
        (
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","name":"U"}},"results":[]}]}"#,
            "runs[0].tool.driver.name"
        ),
        (text(results: [#"{"ruleId":"R1","ruleId":"R2"}"#]), "runs[0].results[0].ruleId"),
        // A member the parser never reads is checked all the same: a later key would silently win.
        (
            text(results: [#"{"ruleId":"R1","properties":{"tags":[],"tags":["x"]}}"#]),
            "runs[0].results[0].properties.tags"
        ),
    ]

    @Test("a key twice in any object is refused, naming it", arguments: duplicates)
    func duplicateKey(document: String, path: String) {
        let error = #expect(throws: CoreError.self) { try SARIFParser.parse(Array(document.utf8)) }
        guard case .invalidDocument(let actualPath, let problem) = error else {
            Issue.record("unexpected error: \(String(describing: error))")
            return
        }
        #expect(actualPath == path)
        #expect(problem == "duplicate key")
    }

    @Test("members are read, and checked, in the same order whatever order the document gives them")
    func memberOrder() throws {
        let reordered =
            #"{"runs":[{"results":[{"locations":[{"physicalLocation":{"region":{"startLine":4},"#
            + #""artifactLocation":{"uri":"A.swift"}}}],"ruleIndex":0}],"#
            + #""tool":{"driver":{"rules":[{"defaultConfiguration":{"level":"error"},"id":"R1"}],"name":"T"}}}],"#
            + #""version":"2.1.0"}"#
        let report = try SARIFParser.parse(Array(reordered.utf8))
        #expect(report.tool == "T")
        #expect(report.findings.map(\.rule) == ["R1"])
        #expect(report.findings.first?.severity == "high")
        #expect(report.findings.first?.file == "A.swift")
        #expect(report.findings.first?.line == 4)

        // The driver is checked before the results, though the results come first.
        let badBoth = #"{"runs":[{"results":[{"level":7}],"tool":{}}],"version":"2.1.0"}"#
        let error = #expect(throws: CoreError.self) { try SARIFParser.parse(Array(badBoth.utf8)) }
        guard case .invalidDocument(let path, let problem) = error else {
            Issue.record("unexpected error: \(String(describing: error))")
            return
        }
        #expect(path == "runs[0].tool.driver")
        #expect(problem == "missing")
    }

    // MARK: - Building documents

    /// A SARIF 2.1.0 log with one run of tool `T` whose driver lists `rules` (JSON text) and whose results are
    /// `results` (JSON texts).
    private static func log(results: [String], rules: String = #"[{"id":"R1"}]"#) -> [UInt8] {
        Array(text(results: results, rules: rules).utf8)
    }

    private static func text(results: [String], rules: String = #"[{"id":"R1"}]"#) -> String {
        #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":\#(rules)}},"results":["#
            + results.joined(separator: ",") + "]}]}"
    }

    /// `count` valid results.
    private static func valid(_ count: Int) -> [String] {
        Array(repeating: result(uri: "A.swift"), count: count)
    }

    /// A result of rule R1 at `uri` (nil: no uri member) with `region` (JSON text; nil: no region).
    private static func result(
        uri: String?,
        region: String? = #"{"startLine":3,"snippet":{"text":"x"}}"#
    ) -> String {
        result(uriJSON: uri.map { #""\#($0)""# }, region: region)
    }

    private static func result(
        uriJSON: String?,
        region: String? = #"{"startLine":3,"snippet":{"text":"x"}}"#
    ) -> String {
        let artifact = uriJSON.map { #"{"uri":\#($0),"uriBaseId":"%SRCROOT%"}"# } ?? #"{"uriBaseId":"%SRCROOT%"}"#
        let regionMember = region.map { #","region":\#($0)"# } ?? ""
        return #"{"ruleId":"R1","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":"#
            + artifact + regionMember + "}}]}"
    }
}
