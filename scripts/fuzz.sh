#!/usr/bin/env bash
# make fuzz: builds each libFuzzer target of Fuzz/ with swiftc (no SwiftPM: the target's file compiled together with
# the library sources it exercises, instrumented for coverage and AddressSanitizer), then runs each for FUZZ_SECONDS.
#
#   FUZZ_SECONDS=60                 how long each target runs
#   FUZZ_TARGETS="duoscan sarif"    which targets (default: all of them)
#   FUZZ_ARGS=-use_value_profile=1  extra libFuzzer flags
#
# Everything it writes is under .build/fuzz/: binaries, the growing corpus of each target (seeded from Fuzz/Corpus),
# crash, timeout and out-of-memory inputs in artifacts/<target>/, and the fuzzer's log. Prints one summary line per
# target and exits non-zero when any target failed. docs/reliability.md says what each target checks.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
read -r -a targets <<<"${FUZZ_TARGETS:-framer http duoscan sarif sdkcheck identity image}"
read -r -a extra <<<"${FUZZ_ARGS:-}"
swiftc=${SWIFTC:-swiftc}
out=.build/fuzz

# The source of type NAME in module MODULE, found by name in whichever subfolder holds it.
source_file() {
    local found
    found=$(find "Sources/$1" -name "$2.swift" -print -quit)
    if [ -z "$found" ]; then
        echo "fuzz.sh: no $2.swift under Sources/$1" >&2
        return 1
    fi
    printf '%s ' "$found"
}

# The library files each target is compiled with (only those it needs: a file being edited elsewhere in the module
# does not stop the fuzzing), and its dictionary.
json="CoreError JSONMembers JSONProblem JSONStreamReader JSONText ScanReport TerminalText ValueExcerpt"
sources() {
    local module=BarkeepCore names
    case $1 in
        framer) module=BarkeepProtocol names="ErrorCode LineFramer ProtocolError Quoting Record Reply Request" ;;
        http) names="HTTPLimit" ;;
        duoscan) names="$json DuoScanParser ScanTable Severity" ;;
        sarif) names="$json SARIFLevel SARIFParser Severity" ;;
        sdkcheck) names="$json Names ScreenKind SDKCheckParser SDKVersion" ;;
        image) names="ImageHeader ImageProblem ScreenshotLimit" ;;
        identity) names="$json DuoScanParser ScanTable IdentityDigest Severity FindingIdentity FindingStatus QuantityText SyncPlanner SyncPlanner+Changed" ;;
        *) return 1 ;;
    esac
    for name in $names; do source_file "$module" "$name"; done
    # The server's connection state machine and the pure types it uses, which the framer target drives, and Core's
    # quoting skeleton, which the protocol's quoting uses (they import nothing beyond these).
    if [ "$1" = framer ]; then
        source_file BarkeepServer ConnectionMachine
        source_file BarkeepServer TransportOutcome
        source_file BarkeepServer TLSHandshake
        source_file BarkeepServer StoredInstant
        source_file BarkeepServer WatchMachine
        source_file BarkeepServer DeadlineQueue
        source_file BarkeepCore QuotedText
        source_file BarkeepCore ValueExcerpt
        source_file BarkeepCore TerminalText
    fi
    # The server's HTTP connection machine and the pure types it uses (they import nothing but Core's HTTPLimit and
    # EventFilter, and the watch machine its event streams share with WATCH).
    if [ "$1" = http ]; then
        source_file BarkeepServer HTTPMachine
        source_file BarkeepServer HTTPAdmission
        source_file BarkeepServer HTTPLimits
        source_file BarkeepServer HTTPRequestHead
        source_file BarkeepServer HTTPResponse
        source_file BarkeepServer HTTPField
        source_file BarkeepServer TLSHandshake
        source_file BarkeepServer StoredInstant
        source_file BarkeepServer TransportOutcome
        source_file BarkeepServer HTTPEventStream
        source_file BarkeepServer WatchMachine
        source_file BarkeepCore EventFilter
        source_file BarkeepCore EventKind
        source_file BarkeepCore CoreError
        # The reply a line watcher ends with (WatchMachine.fellBehind) and what it is made of.
        for name in ErrorCode ProtocolError Quoting Record Reply; do source_file BarkeepProtocol "$name"; done
        source_file BarkeepCore QuotedText
        source_file BarkeepCore ValueExcerpt
        source_file BarkeepCore TerminalText
    fi
    # Identities are hashed by libcrypto, as the store hashes them: the hasher and the C shim it calls (uses_shim).
    if [ "$1" = identity ]; then
        source_file BarkeepHashing LibcryptoHasher
    fi
}
# Whether a target links the CBarkeepTLS shim and libcrypto.
uses_shim() {
    [ "$1" = identity ]
}
dictionary() {
    case $1 in
        framer) echo Fuzz/Dictionaries/protocol.dict ;;
        http) echo Fuzz/Dictionaries/http.dict ;;
        image) echo Fuzz/Dictionaries/image.dict ;;
        *) echo Fuzz/Dictionaries/json.dict ;;
    esac
}

# lld links the sanitizer runtimes without the pages of warnings gold prints.
linker=()
if [ -x "$(dirname "$(command -v "$swiftc")")/ld.lld" ] || command -v ld.lld >/dev/null 2>&1; then
    linker=(-use-ld=lld)
fi

# The CBarkeepTLS shim as SwiftPM builds it: its object, and a module map so that `import CBarkeepTLS` finds its
# header; linked with OpenSSL's libraries. Prints the swiftc arguments that use it.
shim=Sources/CBarkeepTLS
shim_arguments() {
    local module=$out/shim/CBarkeepTLS object=$out/shim/CBarkeepTLS.o
    mkdir -p "$module"
    printf 'module CBarkeepTLS {\n    header "%s"\n    export *\n}\n' "$PWD/$shim/include/CBarkeepTLS.h" \
        >"$module/module.modulemap"
    local clang
    clang=$(dirname "$(command -v "$swiftc")")/clang
    [ -x "$clang" ] || clang=clang
    "$clang" -c -O2 -I "$shim/include" "$shim/CBarkeepTLS.c" -o "$object"
    printf '%s ' -I "$module" "$object" -lssl -lcrypto
}

build() {
    local target=$1 binary=$out/bin/$1
    local files inputs shim_args=()
    read -r -a files <<<"$(sources "$target")"
    inputs=("Fuzz/$target.swift" "${files[@]}")
    uses_shim "$target" && inputs+=("$shim/CBarkeepTLS.c" "$shim/include/CBarkeepTLS.h")
    if [ -x "$binary" ] && [ -z "$(find "${inputs[@]}" -newer "$binary" -print -quit)" ]; then
        return 0
    fi
    echo "== building $target"
    mkdir -p "$out/bin"
    if uses_shim "$target"; then
        local shim_text
        shim_text=$(shim_arguments)
        read -r -a shim_args <<<"$shim_text"
    fi
    "$swiftc" -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -warnings-as-errors "${linker[@]}" \
        -module-name "Fuzz_$target" -module-cache-path "$out/module-cache" \
        "${files[@]}" "Fuzz/$target.swift" "${shim_args[@]}" -o "$binary"
}

# The last value libFuzzer printed for a statistic (`cov:`, `corp:`); empty when it printed none.
last_stat() {
    grep -o "$1 [^ ]*" "$2" | tail -n 1 | cut -d ' ' -f 2 || true
}

for target in "${targets[@]}"; do
    if ! sources "$target" >/dev/null || [ ! -f "Fuzz/$target.swift" ]; then
        echo "fuzz: unknown target '$target' (known: framer http duoscan sarif sdkcheck identity image)" >&2
        exit 64
    fi
    build "$target"
done

failed=0
summary=()
for target in "${targets[@]}"; do
    corpus=$out/corpus/$target
    artifacts=$out/artifacts/$target
    log=$out/logs/$target.log
    mkdir -p "$corpus" "$artifacts" "$out/logs"
    marker=$(mktemp)
    echo "== fuzzing $target for ${seconds}s (log: $log)"
    status=0
    started=$SECONDS
    # The Swift runtime's backtracer would hang around after a crash; libFuzzer reports the stack itself.
    SWIFT_BACKTRACE=enable=no "$out/bin/$target" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -dict="$(dictionary "$target")" -artifact_prefix="$artifacts/" "${extra[@]}" \
        "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    found=$(find "$artifacts" -type f -newer "$marker" | sort)
    rm -f "$marker"

    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -n 1 | cut -d ' ' -f 2 || true)
    coverage=$(last_stat cov: "$log") features=$(last_stat ft: "$log") entries=$(last_stat corp: "$log")
    line="$target: ${runs:-?} runs in $((SECONDS - started))s, coverage ${coverage:-?} edges (${features:-?} features)"
    line+=", corpus ${entries:-?}, crashes $(grep -c . <<<"$found" || true)"
    if [ "$status" -ne 0 ] || [ -n "$found" ]; then
        failed=1
        line+=" — FAILED (exit $status)"
        while IFS= read -r detail; do
            line+=$'\n'"    $detail"
        done < <(grep -m 3 -E 'Fatal error|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)' "$log"; echo "$found")
    fi
    summary+=("$line")
done

echo
echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
exit "$failed"
