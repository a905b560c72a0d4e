// libFuzzer target `sdkcheck`: `SDKCheckParser.parse` on any bytes (scripts/fuzz.sh compiles it together with
// the BarkeepCore files it uses). The parser must return a report that keeps its documented promises, or throw
// `CoreError.invalidDocument`; never crash, hang or exhaust the stack.

/// The fuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let report = try SDKCheckParser.parse(bytes)
        for symbol in report.symbols {
            require(Names.isValidSymbol(symbol.symbol), "symbol \(symbol.symbol)")
            require(symbol.found || symbol.availableFrom == nil, "a missing symbol with an availability")
            if let version = symbol.availableFrom {
                // A version reads back from its text (27.10 stays 27.10, 27.0 prints 27.0).
                require(SDKVersion(version.description) == version, "version \(version) does not read back")
            }
        }
        if let sdk = report.sdk {
            require(SDKVersion(sdk.description) == sdk, "sdk \(sdk) does not read back")
        }
    } catch {
        guard case .invalidDocument = error else { fatalError("SDKCheckParser threw \(error)") }
        _ = error.description
    }
    return 0
}

/// Stops the fuzzer when `condition` is false. Unlike `precondition`, which an optimized build stops without a word,
/// it says what failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
