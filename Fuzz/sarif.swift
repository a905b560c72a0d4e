// libFuzzer target `sarif`: `SARIFParser.parse` on any bytes (scripts/fuzz.sh compiles it together with
// the BarkeepCore files it uses). The parser must return a report that keeps its documented promises, or throw
// `CoreError.invalidDocument` or `.unsupportedVersion`; never crash, hang or exhaust the stack.

import Foundation

/// The fuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let report = try SARIFParser.parse(bytes)
        require(report.format == .sarif, "format \(report.format)")
        for finding in report.findings {
            require(finding.line >= 1, "line \(finding.line)")
            require(severities.contains(finding.severity), "severity \(finding.severity)")
            require(!finding.file.hasPrefix("./"), "file \(finding.file) keeps its ./")
            if let fingerprints = finding.fingerprints {
                // Kept as JSON text written by hand (JSONText): it must be a JSON object of objects of strings.
                let object = try? JSONSerialization.jsonObject(with: Data(fingerprints.utf8))
                guard let members = object as? [String: Any],
                    members.values.allSatisfy({ $0 is [String: String] })
                else { fatalError("fingerprints are not a JSON object of strings: \(fingerprints)") }
            }
        }
    } catch {
        switch error {
        case .invalidDocument, .unsupportedVersion: _ = error.description
        default: fatalError("SARIFParser threw \(error)")
        }
    }
    return 0
}

/// The severities SARIF levels map to.
let severities: Set = ["high", "medium", "low", "info"]

/// Stops the fuzzer when `condition` is false. Unlike `precondition`, which an optimized build stops without a word,
/// it says what failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
