// libFuzzer target `duoscan`: `DuoScanParser.parse` on any bytes (scripts/fuzz.sh compiles it together with
// the BarkeepCore files it uses). The parser must return a report that keeps its documented promises, or throw
// `CoreError.invalidDocument`; never crash, hang or exhaust the stack.

/// The fuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let report = try DuoScanParser.parse(bytes)
        require(report.format == .duoScan, "format \(report.format)")
        require(report.filesScanned.map { $0 >= 0 } ?? true, "negative source_files_scanned")
        for finding in report.findings {
            require(finding.line >= 1, "line \(finding.line)")
            require(severities.contains(finding.severity), "severity \(finding.severity)")
            require(finding.fingerprints == nil, "duo_scan has no fingerprints")
        }
    } catch {
        guard case .invalidDocument = error else { fatalError("DuoScanParser threw \(error)") }
        _ = error.description
    }
    return 0
}

/// The severities duo_scan reports.
let severities: Set = ["critical", "high", "medium", "low", "info"]

/// Stops the fuzzer when `condition` is false. Unlike `precondition`, which an optimized build stops without a word,
/// it says what failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
