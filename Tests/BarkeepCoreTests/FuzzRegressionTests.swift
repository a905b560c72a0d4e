import BarkeepCore
import BarkeepHashing
import Foundation
import Testing

/// Inputs of the JSON fuzz targets (Fuzz/, `make fuzz`) kept in `FuzzRegressions/<target>/`: crashes they found, and
/// inputs written to probe the same promises (nesting far deeper than any parser allows, numbers out of range, lone
/// surrogates, other encodings). Each parser must return or throw its documented error.
@Suite("Fuzz regressions (scan parsers)")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    /// The input files of one target, as `target/name`.
    static func inputs(_ target: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(target).path))
        return (names ?? []).sorted().map { "\(target)/\($0)" }
    }

    private static func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory.appendingPathComponent(path)))
    }

    @Test("every target has its regression inputs", arguments: ["duoscan", "sarif", "sdkcheck", "identity"])
    func inputsFound(target: String) {
        #expect(Self.inputs(target).count >= 2, "\(target)")
    }

    @Test("duo_scan: a report or invalidDocument", arguments: inputs("duoscan"))
    func duoScan(path: String) throws {
        let bytes = try Self.bytes(path)
        do {
            let report = try DuoScanParser.parse(bytes)
            #expect(report.findings.allSatisfy { $0.line >= 1 })
        } catch {
            guard case .invalidDocument = error else {
                Issue.record("\(path): \(error)")
                return
            }
        }
    }

    @Test("SARIF: a report, invalidDocument or unsupportedVersion", arguments: inputs("sarif"))
    func sarif(path: String) throws {
        let bytes = try Self.bytes(path)
        do {
            let report = try SARIFParser.parse(bytes)
            #expect(report.findings.allSatisfy { $0.line >= 1 && !$0.file.hasPrefix("./") })
        } catch {
            switch error {
            case .invalidDocument, .unsupportedVersion: break
            case .unreadableDirectory, .sourceOutsideRoot, .invalidArgument: Issue.record("\(path): \(error)")
            }
        }
    }

    @Test("SDK check: a report or invalidDocument", arguments: inputs("sdkcheck"))
    func sdkCheck(path: String) throws {
        let bytes = try Self.bytes(path)
        do {
            let report = try SDKCheckParser.parse(bytes)
            #expect(report.symbols.allSatisfy { $0.found || $0.availableFrom == nil })
        } catch {
            guard case .invalidDocument = error else {
                Issue.record("\(path): \(error)")
                return
            }
        }
    }

    @Test("identity: the same scan synced twice plans nothing new and nothing fixed", arguments: inputs("identity"))
    func identity(path: String) throws {
        guard let report = try? DuoScanParser.parse(try Self.bytes(path)) else { return }
        let scan = FindingIdentity.identify(report.findings, tool: report.tool, hasher: LibcryptoHasher())
        #expect(Set(scan.map(\.identity)).count == scan.count)
        #expect(SyncPlanner.plan(scan: scan, stored: []).counts == SyncCounts(new: scan.count))
        let stored = scan.enumerated().map { index, finding in
            StoredFinding(
                id: Int64(index), identity: finding.identity, rule: finding.finding.rule, status: .proposed,
                line: finding.finding.line,
                file: finding.finding.file)
        }
        let again = FindingIdentity.identify(report.findings, tool: report.tool, hasher: LibcryptoHasher())
        #expect(SyncPlanner.plan(scan: again, stored: stored).counts == SyncCounts(unchanged: scan.count))
        let reversed = FindingIdentity.identify(
            Array(report.findings.reversed()), tool: report.tool, hasher: LibcryptoHasher())
        #expect(Set(reversed.map(\.identity)) == Set(scan.map(\.identity)))
    }

    @Test(
        "nesting far deeper than JSONSerialization allows (512) is refused as not JSON by every parser",
        arguments: [
            "duoscan/deep-nesting-arrays.json", "sarif/deep-nesting-objects.sarif", "sdkcheck/deep-nesting-mixed.json",
        ]
    )
    func deepNesting(path: String) throws {
        let bytes = try Self.bytes(path)
        let problems = [
            refusal { () throws(CoreError) in _ = try DuoScanParser.parse(bytes) },
            refusal { () throws(CoreError) in _ = try SARIFParser.parse(bytes) },
            refusal { () throws(CoreError) in _ = try SDKCheckParser.parse(bytes) },
        ]
        for problem in problems {
            #expect(problem?.hasPrefix("not valid JSON") == true, "\(String(describing: problem))")
        }
    }

    /// The error `parse` throws, as its description; nil when it returns.
    private func refusal(_ parse: () throws(CoreError) -> Void) -> String? {
        do {
            try parse()
            return nil
        } catch {
            return error.description
        }
    }
}
