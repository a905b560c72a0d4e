import BarkeepAPI
import BarkeepCore
import Foundation

/// `findings --format sarif`: the findings of `finding` records as one SARIF 2.1.0 log that GitHub code scanning
/// accepts, and that `SARIFParser` reads back.
///
/// - One run; `tool.driver` is `barkeep` at this build's version, with a rule descriptor per rule of the results
///   (sorted by id): `name` (the rule's title in UpperCamelCase), `shortDescription` (its title; the rule id when
///   no finding has one), `defaultConfiguration.level` (its most severe finding's) and `properties` `tier` and
///   `step` when the rule has either.
/// - A result per scanner finding that needs work or carries a verdict (declined, kept, false positive), sorted by
///   file, line and number: `ruleId` and `ruleIndex`, `level` (`SARIFLevel(severity:)`), `message.text` (the
///   scanner's message, else the title, else the rule), the file as a relative URI under `%SRCROOT%` with the line
///   and the snippet, `partialFingerprints` `barkeep/identity/v1` (Barkeep's identity digest: stable while the code
///   only moves), and `properties` `number`, `status`, `severity` and `screen`.
/// - A finding with a verdict carries `suppressions: [{"kind": "external", "justification": reason}]`, so code
///   scanning shows it dismissed rather than open.
/// - Left out, and counted: findings without a file (items added by hand, project-level findings; code scanning
///   requires a location), and fixed or verified findings (nothing left to show).
public enum FindingsSARIF {
    /// The `partialFingerprints` key holding Barkeep's identity digest.
    public static let fingerprintKey = "barkeep/identity/v1"

    /// The tool name the log gives: what a project that ingests it sees as its scanner.
    public static let toolName = "barkeep"

    /// The statuses a SARIF log holds: those needing work as open results, the verdicts as suppressed ones.
    public static let exportedStatuses: [FindingStatus] =
        FindingLifecycle.needsWorkStatuses + FindingLifecycle.stickyStatuses

    /// A SARIF log and what it left out.
    public struct Export: Sendable, Equatable {
        /// The log, pretty-printed JSON with sorted keys, ending with a newline.
        public var log: String
        /// How many results it holds.
        public var results: Int
        /// How many of them are suppressed (declined, kept, false positive).
        public var suppressed: Int
        /// Findings left out for want of a file: items, project-level findings.
        public var withoutFile: Int
        /// Findings left out as closed: fixed or verified.
        public var closed: Int
    }

    /// The log of `records` (typed `finding` records, in any order), with `version` as the driver's version.
    public static func export(_ records: [FindingRecord], version: String = BarkeepVersion.current)
        throws(ReportError) -> Export
    {
        var findings: [(finding: ReportFinding, record: FindingRecord)] = []
        var (withoutFile, closed) = (0, 0)
        for record in records {
            let finding = try ReportFinding(record)
            if !exportedStatuses.contains(finding.status) {
                closed += 1
            } else if finding.rule == nil || (finding.file ?? "").isEmpty {
                withoutFile += 1
            } else {
                findings.append((finding, record))
            }
        }
        findings.sort {
            ($0.finding.file ?? "", $0.finding.line ?? 0, $0.finding.number) < (
                $1.finding.file ?? "", $1.finding.line ?? 0, $1.finding.number
            )
        }
        let rules = descriptors(findings.map(\.finding))
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let results = findings.map {
            result(of: $0.finding, record: $0.record, ruleIndex: index[$0.finding.rule ?? ""])
        }
        let log = Log(
            runs: [Run(tool: Tool(driver: Driver(name: toolName, version: version, rules: rules)), results: results)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text: String
        do {
            text = String(decoding: try encoder.encode(log), as: UTF8.self)
        } catch {
            // Every value is a string, an integer or an array or object of them: encoding cannot fail.
            text = "{}"
        }
        return Export(
            log: text + "\n", results: results.count, suppressed: results.filter { $0.suppressions != nil }.count,
            withoutFile: withoutFile, closed: closed)
    }

    /// A rule descriptor per rule of `findings`, sorted by id.
    private static func descriptors(_ findings: [ReportFinding]) -> [Rule] {
        let byRule = Dictionary(grouping: findings, by: { $0.rule ?? "" })
        return byRule.keys.sorted().compactMap { id in
            guard let group = byRule[id]?.sorted(by: { $0.number < $1.number }), let first = group.first else {
                return nil
            }
            let title = group.lazy.compactMap(\.title).first
            let severity = group.map(\.severity).min() ?? first.severity
            // The rules table gives every finding of a rule the same tier and step; the first that has one says.
            let (tier, step) = (group.lazy.compactMap(\.tier).first, group.lazy.compactMap(\.step).first)
            return Rule(
                id: id, name: title.map(identifier) ?? id, shortDescription: Message(text: title ?? id),
                defaultConfiguration: Configuration(level: SARIFLevel(severity: severity.rawValue).rawValue),
                properties: tier == nil && step == nil ? nil : RuleProperties(tier: tier, step: step))
        }
    }

    /// `Standalone bar instance` as `StandaloneBarInstance`: each word's letters and digits, capitalized.
    static func identifier(_ title: String) -> String {
        title.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }

    /// The result of one finding.
    private static func result(of finding: ReportFinding, record: FindingRecord, ruleIndex: Int?) -> Result {
        let rule = finding.rule ?? ""
        let region = finding.line.map { Region(startLine: $0, snippet: finding.snippet.map(Message.init(text:))) }
        let location = Location(
            physicalLocation: PhysicalLocation(
                artifactLocation: ArtifactLocation(uri: uri(finding.file ?? ""), uriBaseId: "%SRCROOT%"),
                region: region))
        let message = [record.message, finding.title].compactMap { $0 }.first { !$0.isEmpty } ?? rule
        return Result(
            ruleId: rule, ruleIndex: ruleIndex, level: SARIFLevel(severity: finding.severity.rawValue).rawValue,
            message: Message(text: message), locations: [location],
            partialFingerprints: record.identity.map { [fingerprintKey: $0] },
            suppressions: finding.status.isSticky
                ? [Suppression(kind: "external", justification: finding.reason ?? finding.status.rawValue)] : nil,
            properties: ResultProperties(
                number: finding.number, status: finding.status.rawValue, severity: finding.severity.rawValue,
                screen: finding.screen))
    }

    /// The characters a path keeps in its URI: RFC 3986's path characters but the colon (which would make the
    /// first segment a scheme).
    private static let uriCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,;=@")

    /// A relative path as a URI reference: everything else percent-encoded as UTF-8, which `SARIFParser` decodes.
    static func uri(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: uriCharacters) ?? path
    }

    // MARK: - The parts of a log that it writes

    private struct Log: Encodable {
        var schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json"
        var version = SARIFParser.supportedVersion
        var runs: [Run]

        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    private struct Run: Encodable {
        var tool: Tool
        var results: [Result]
    }

    private struct Tool: Encodable {
        var driver: Driver
    }

    private struct Driver: Encodable {
        var name: String
        var version: String
        var rules: [Rule]
    }

    private struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Message
        var defaultConfiguration: Configuration
        var properties: RuleProperties?
    }

    private struct Configuration: Encodable {
        var level: String
    }

    private struct RuleProperties: Encodable {
        var tier: Int?
        var step: Int?
    }

    private struct Message: Encodable {
        var text: String
    }

    private struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Message
        var locations: [Location]
        var partialFingerprints: [String: String]?
        var suppressions: [Suppression]?
        var properties: ResultProperties
    }

    private struct Location: Encodable {
        var physicalLocation: PhysicalLocation
    }

    private struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    private struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String
    }

    private struct Region: Encodable {
        var startLine: Int
        var snippet: Message?
    }

    private struct Suppression: Encodable {
        var kind: String
        var justification: String
    }

    private struct ResultProperties: Encodable {
        var number: Int
        var status: String
        var severity: String
        var screen: String
    }
}
