import Foundation

/// Reads SARIF 2.1.0 logs, from any scanner, into a `ScanReport`.
///
/// - `version` must be `2.1.0`; another version throws `CoreError.unsupportedVersion("SARIF <version>")`.
/// - `runs` must hold at least one run, and every run a `results` array (empty when nothing was found): SARIF
///   leaves `results` out when the tool failed, and reading that as "no findings" would mark every open finding
///   fixed. The results of all runs are concatenated in order; the report's tool is the first run's
///   `tool.driver.name`, its version that driver's `version`, or its `semanticVersion` when `version` is absent.
/// - A result's rule is `ruleId`, else `rule.id`, else the id of the rule that `ruleIndex` (or `rule.index`)
///   points at in `tool.driver.rules`. That rule descriptor, looked up by index or else by id, gives the title
///   (`shortDescription.text`, else `name`) and the default level (`defaultConfiguration.level`).
/// - Severity from `level` (`SARIFLevel`): error → high, warning → medium, note → low, none → info; without
///   `level`, the rule's default level, else warning (SARIF's own default).
/// - Place from the first location's `physicalLocation`: `artifactLocation.uri` percent-decoded and without a
///   leading `./`, left relative to its `uriBaseId`; `region.startLine`, 1 without it; `region.snippet.text`
///   kept with its indentation, "" without it. A result without any location (or whose first location is only
///   logical) is a project-level finding: file "", line 1, snippet "".
/// - `partialFingerprints` and `fingerprints` are kept as one compact JSON object with sorted keys
///   (`{"fingerprints":{…},"partialFingerprints":{…}}`, only the members present), nil when neither is. They
///   are never an identity: Semgrep writes the same placeholder on every result.
///
/// Wrong types and missing members anywhere the parser reads throw `CoreError.invalidDocument` naming the place
/// (`runs[0].results[3].locations[0].physicalLocation.region.startLine`, `expected an integer`), and so does a key
/// that appears twice in any object (`runs[0].results[3].ruleId: duplicate key`). Members the parser does not read
/// are ignored.
public enum SARIFParser {
    /// The one SARIF version this parser reads.
    public static let supportedVersion = "2.1.0"

    /// Parses a whole SARIF log.
    ///
    /// The bytes are read with `JSONStreamReader`, never as an object tree: a first pass checks the whole document
    /// (grammar, duplicate keys) and finds the top-level members; the runs are then read twice, first checking
    /// every result and keeping nothing, then keeping the findings in an array reserved to their exact count. Each
    /// object the parser reads is first walked once to note where its members start (`JSONMembers`), so that members are
    /// checked in the same order whatever order the document gives them.
    public static func parse(_ bytes: [UInt8]) throws(CoreError) -> ScanReport {
        let root: JSONMembers
        let version: String
        do {
            var reader = JSONStreamReader(bytes)
            root = try JSONMembers(&reader, keys: ["version", "runs"], isDocument: true)
            version = try root.requiredString("version")
        } catch {
            throw error.coreError
        }
        guard version == supportedVersion else { throw .unsupportedVersion("SARIF \(version)") }
        do {
            var (report, findings) = try JSONStreamReader.readTwice {
                (findings: inout [ScanFinding]?) throws(JSONProblem) in
                try read(root, into: &findings)
            }
            report.findings = findings
            return report
        } catch {
            throw error.coreError
        }
    }

    // MARK: - Runs

    /// Reads the runs; appends each finding to `findings` unless it is nil. Returns the report without its findings,
    /// and how many the runs hold.
    private static func read(
        _ root: JSONMembers,
        into findings: inout [ScanFinding]?
    ) throws(JSONProblem) -> (header: ScanReport, count: Int) {
        guard var runs = try root.array("runs") else {
            throw JSONProblem(at: .key("runs"), problem: JSONProblem.missing)
        }
        var tool = ""
        var toolVersion: String?
        var (count, runCount) = (0, 0)
        do {
            try runs.readArray { reader, runIndex throws(JSONProblem) in
                let run = try JSONMembers(&reader, keys: ["tool", "invocations", "results"])
                let driver = try Driver(run: run)
                if runIndex == 0 {
                    tool = driver.name
                    toolVersion = driver.version
                } else if driver.name != tool {
                    // Each tool's findings are synced on their own; mixing them under one name would reshuffle
                    // identities whenever the runs' order changes.
                    throw JSONProblem(
                        at: .key("tool"),
                        .key("driver"),
                        .key("name"),
                        problem:
                            "every run of one upload must come from the same tool (\(ValueExcerpt.quoted(tool)) first); "
                            + "upload each tool's runs separately"
                    )
                }
                count += try readFindings(of: run, driver: driver, into: &findings)
                runCount = runIndex + 1
            }
        } catch {
            throw error.inside(.key("runs"))
        }
        guard runCount > 0 else { throw JSONProblem(at: .key("runs"), problem: "expected at least one run") }
        return (ScanReport(format: .sarif, tool: tool, toolVersion: toolVersion, findings: []), count)
    }

    /// Reads a run's results; appends each finding to `findings` unless it is nil; returns how many it found.
    private static func readFindings(
        of run: JSONMembers,
        driver: Driver,
        into findings: inout [ScanFinding]?
    ) throws(JSONProblem) -> Int {
        // A run whose tool says it failed has no trustworthy results: reading them as complete would mark every
        // finding it missed fixed.
        if var invocations = try run.array("invocations") {
            do {
                try invocations.readArray { reader, _ throws(JSONProblem) in
                    guard try reader.peekKind() == .object else { return try reader.skipValue() }
                    let invocation = try JSONMembers(&reader, keys: ["executionSuccessful"])
                    guard var success = invocation.member("executionSuccessful"),
                        try success.peekKind() == .boolean, try success.readBoolean() == false
                    else { return }
                    throw JSONProblem(
                        at: .key("executionSuccessful"),
                        problem: "the tool reports that it failed; its results are not a complete scan"
                    )
                }
            } catch {
                throw error.inside(.key("invocations"))
            }
        }
        guard var results = try run.array("results") else {
            throw JSONProblem(at: .key("results"), problem: JSONProblem.missing)
        }
        var count = 0
        do {
            try results.readArray { reader, _ throws(JSONProblem) in
                let result = try JSONMembers(&reader, keys: resultKeys)
                // `pass` and `notApplicable` results record checks that found nothing.
                if let kind = try result.string("kind"), kind == "pass" || kind == "notApplicable" { return }
                let finding = try finding(from: result, driver: driver)
                findings?.append(finding)
                count += 1
            }
        } catch {
            throw error.inside(.key("results"))
        }
        return count
    }

    // MARK: - Results

    /// The members of a result the parser reads.
    private static let resultKeys: Set<String> = [
        "kind", "ruleId", "rule", "ruleIndex", "level", "message", "locations", "fingerprints", "partialFingerprints",
    ]

    private static func finding(from result: JSONMembers, driver: Driver) throws(JSONProblem) -> ScanFinding {
        let ruleID = try self.ruleID(of: result)
        let descriptor = try ruleDescriptor(of: result, id: ruleID, driver: driver)
        guard let rule = ruleID ?? descriptor?.id else {
            throw JSONProblem(at: .key("ruleId"), problem: JSONProblem.missing)
        }

        let severity: String
        if let level = try result.string("level") {
            guard let mapped = Self.severity(forLevel: level) else {
                throw JSONProblem(at: .key("level"), problem: JSONProblem.expectedOne(of: levels))
            }
            severity = mapped
        } else {
            severity = descriptor?.defaultSeverity ?? Severity.medium.rawValue
        }

        let message = try result.string(in: "message", "text")

        var place = Place.projectLevel
        if var locations = try result.array("locations") {
            do {
                try locations.readArray { reader, index throws(JSONProblem) in
                    guard index == 0 else { return try reader.skipValue() }
                    place = try Place(location: JSONMembers(&reader, keys: ["physicalLocation"]))
                }
            } catch {
                throw error.inside(.key("locations"))
            }
        }

        return ScanFinding(
            rule: rule,
            title: descriptor?.title,
            severity: severity,
            file: place.file,
            line: place.line,
            snippet: place.snippet,
            message: message,
            fingerprints: try fingerprints(of: result)
        )
    }

    /// `ruleId`, else `rule.id` (SARIF's other way of naming the rule).
    private static func ruleID(of result: JSONMembers) throws(JSONProblem) -> String? {
        if let id = try result.string("ruleId") { return id }
        return try result.string(in: "rule", "id")
    }

    /// The rule descriptor in `tool.driver.rules` the result points at with `ruleIndex` or `rule.index`, else the
    /// one with the rule id `id`; nil when the driver lists no such rule.
    private static func ruleDescriptor(
        of result: JSONMembers,
        id: String?,
        driver: Driver
    ) throws(JSONProblem) -> Rule? {
        // -1 is SARIF's explicit "no index".
        var index = try result.integer("ruleIndex", minimum: -1)
        let isIndexInReference = index == nil
        if isIndexInReference { index = try result.integer(in: "rule", "index", minimum: -1) }
        if let index, index >= 0 {
            guard index < driver.rules.count else {
                let problem = "expected an index into tool.driver.rules"
                throw isIndexInReference
                    ? JSONProblem(at: .key("rule"), .key("index"), problem: problem)
                    : JSONProblem(at: .key("ruleIndex"), problem: problem)
            }
            return driver.rules[index]
        }
        guard let id, let position = driver.ruleIndexByID[id] else { return nil }
        return driver.rules[position]
    }

    /// `partialFingerprints` and `fingerprints` as one compact JSON object text with sorted keys.
    private static func fingerprints(of result: JSONMembers) throws(JSONProblem) -> String? {
        let full = try result.stringDictionary("fingerprints")
        let partial = try result.stringDictionary("partialFingerprints")
        guard full != nil || partial != nil else { return nil }
        var members: [(key: String, value: String)] = []
        if let full { members.append(("fingerprints", JSONText.object(strings: full))) }
        if let partial { members.append(("partialFingerprints", JSONText.object(strings: partial))) }
        return JSONText.object(members)
    }

    // MARK: - Levels

    private static let levels = SARIFLevel.allCases.map(\.rawValue)

    /// Barkeep's severity for a SARIF level; nil for a word SARIF does not define.
    private static func severity(forLevel level: String) -> String? {
        SARIFLevel(rawValue: level)?.severity
    }

    // MARK: - Pieces of a run

    /// A run's `tool.driver`: its name, version and rule descriptors.
    private struct Driver {
        var name: String
        var version: String?
        var rules: [Rule]
        /// The position of each rule id in `rules`; the first wins when a driver lists an id twice.
        var ruleIndexByID: [String: Int]

        init(run: JSONMembers) throws(JSONProblem) {
            let tool = try run.requiredObject("tool", keys: ["driver"])
            let driver: JSONMembers
            do {
                driver = try tool.requiredObject("driver", keys: ["name", "version", "semanticVersion", "rules"])
            } catch {
                throw error.inside(.key("tool"))
            }
            do {
                (name, version, rules) = try Self.read(driver)
            } catch {
                throw error.inside(.key("tool"), .key("driver"))
            }
            ruleIndexByID = [:]
            ruleIndexByID.reserveCapacity(rules.count)
            for (index, rule) in rules.enumerated() where ruleIndexByID[rule.id] == nil {
                ruleIndexByID[rule.id] = index
            }
        }

        private static func read(
            _ driver: JSONMembers
        ) throws(JSONProblem) -> (name: String, version: String?, rules: [Rule]) {
            let name = try driver.requiredString("name")
            var version = try driver.string("version")
            if version == nil { version = try driver.string("semanticVersion") }
            var rules: [Rule] = []
            if var elements = try driver.array("rules") {
                do {
                    try elements.readArray { reader, _ throws(JSONProblem) in
                        let keys: Set<String> = ["id", "shortDescription", "name", "defaultConfiguration"]
                        rules.append(try Rule(descriptor: JSONMembers(&reader, keys: keys)))
                    }
                } catch {
                    throw error.inside(.key("rules"))
                }
            }
            return (name, version, rules)
        }
    }

    /// What a result borrows from its rule descriptor.
    private struct Rule {
        var id: String
        var title: String?
        /// The severity of `defaultConfiguration.level`, when the descriptor gives one.
        var defaultSeverity: String?

        init(descriptor: JSONMembers) throws(JSONProblem) {
            id = try descriptor.requiredString("id")
            title = try descriptor.string(in: "shortDescription", "text")
            if title == nil { title = try descriptor.string("name") }
            if let level = try descriptor.string(in: "defaultConfiguration", "level") {
                guard let severity = SARIFParser.severity(forLevel: level) else {
                    throw JSONProblem(
                        at: .key("defaultConfiguration"),
                        .key("level"),
                        problem: JSONProblem.expectedOne(of: SARIFParser.levels)
                    )
                }
                defaultSeverity = severity
            }
        }
    }

    /// Where a result is: its first location's file, line and snippet.
    private struct Place {
        var file: String
        var line: Int
        var snippet: String

        /// A result without a physical location concerns the project as a whole.
        static let projectLevel = Place(file: "", line: 1, snippet: "")

        private init(file: String, line: Int, snippet: String) {
            self.file = file
            self.line = line
            self.snippet = snippet
        }

        init(location: JSONMembers) throws(JSONProblem) {
            self = .projectLevel
            guard let physical = try location.object("physicalLocation", keys: ["artifactLocation", "region"]) else {
                return
            }
            // Typed explicitly: the inner catch clauses' `throw`s would otherwise make this `any Error`.
            do throws(JSONProblem) {
                if let artifact = try physical.object("artifactLocation", keys: ["uri"]) {
                    do {
                        file = SARIFParser.relativePath(fromURI: try artifact.requiredString("uri"))
                    } catch {
                        throw error.inside(.key("artifactLocation"))
                    }
                }
                if let region = try physical.object("region", keys: ["startLine", "snippet"]) {
                    do {
                        line = try region.integer("startLine", minimum: 1) ?? 1
                        snippet = try region.string(in: "snippet", "text") ?? ""
                    } catch {
                        throw error.inside(.key("region"))
                    }
                }
            } catch {
                throw error.inside(.key("physicalLocation"))
            }
        }
    }

    /// A SARIF artifact URI as a path relative to the scanned root: percent-decoded (kept as is when it is not
    /// valid percent-encoding) and without leading `./`.
    private static func relativePath(fromURI uri: String) -> String {
        var path = uri
        if path.utf8.contains(UInt8(ascii: "%")), let decoded = path.removingPercentEncoding {
            path = decoded
        }
        var start = path.startIndex
        while path[start...].hasPrefix("./") {
            start = path.index(start, offsetBy: 2)
        }
        return start == path.startIndex ? path : String(path[start...])
    }
}
