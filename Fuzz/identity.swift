// libFuzzer target `identity`: a duo_scan document that parses is identified and synced against itself
// (scripts/fuzz.sh compiles it with the BarkeepCore files it uses and BarkeepHashing's libcrypto hasher). The same
// scan ingested twice must plan nothing new and nothing fixed, and a scan's identities must not depend on the order
// of its findings.

/// The fuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let report = try? DuoScanParser.parse(bytes) else { return 0 }
    let scan = FindingIdentity.identify(report.findings, tool: report.tool, hasher: LibcryptoHasher())
    require(scan.count == report.findings.count, "identify lost findings")

    // Within one scan (rule, file, normalized snippet, occurrence) never repeats, so neither may an identity.
    var identities = Set<String>()
    for finding in scan {
        require(identities.insert(finding.identity).inserted, "two findings share an identity: \(finding)")
    }

    let first = SyncPlanner.plan(scan: scan, stored: [])
    require(first.counts == SyncCounts(new: scan.count), "first sync: \(first.counts)")

    // The stored findings after the first sync, in every status, then the same scan again.
    let statuses = FindingStatus.allCases
    let stored = scan.enumerated().map { index, finding in
        StoredFinding(
            id: Int64(index),
            identity: finding.identity,
            rule: finding.finding.rule,
            status: statuses[index % statuses.count],
            line: finding.finding.line,
            file: finding.finding.file
        )
    }
    let again = FindingIdentity.identify(report.findings, tool: report.tool, hasher: LibcryptoHasher())
    require(again == scan, "identify is not deterministic")
    let second = SyncPlanner.plan(scan: again, stored: stored)
    let reopened = stored.filter { $0.status == .fixed }.count
    require(
        second.counts == SyncCounts(reopened: reopened, unchanged: scan.count - reopened),
        "second sync of the same scan: \(second.counts)"
    )

    // The order of the findings in the file changes no identity.
    let reversed = FindingIdentity.identify(
        Array(report.findings.reversed()), tool: report.tool, hasher: LibcryptoHasher())
    require(Set(reversed.map(\.identity)) == identities, "identities depend on the order")
    return 0
}

/// Stops the fuzzer when `condition` is false. Unlike `precondition`, which an optimized build stops without a word,
/// it says what failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
