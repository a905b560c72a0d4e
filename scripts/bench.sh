#!/usr/bin/env bash
# make bench: barkeepd against redis-server, with the same client (barkeep-bench) in the same run, rounds alternating,
# each row both rates and their ratio: bare PING from 1,000 connections each pipelining 100 (CONNECTIONS, PIPELINE,
# ROUNDS); a quoted "PING", which takes the general request path, pipelined so and unpipelined (50 connections, one
# request in flight each, BATCHES in a round: UNPIPELINED_CONNECTIONS, BATCHES); and a reader command, STATUS of a
# small project on connections that said HELLO with a reader token, against redis's GET of a value as long as its
# reply, pipelined and unpipelined. Then the scanner sync, with a real history's churn and
# with no change, against parse + raw COPY (and the initial import into 1,000 screens against the same import without
# screens), a check (barkeep check's CHECK) of a 100,000-finding churned scan against its sync, then the same syncs
# end to end from the CLI (barkeep ingest of real-shaped scans,
# scripts/sync_cli_bench.py) against Python's json.load + psql \copy, and
# the dashboard's STATUS at team scale against a PING round trip (STATUS_PLANS=1 prints its query plans), and the
# load scenario: FINDING SET from 1,000 clients against pgbench running the same statements (scripts/finding-set.pgbench)
# on as many database connections as barkeepd's pool (POOL_SIZE, 4), then 1,000 clients mixing reads, triage and
# ingests (scripts/load.py; LOAD_CLIENTS, LOAD_SECONDS, FINDING_SET_SECONDS); and the web dashboard at the same
# scale (barkeep-web-bench, scripts/web_bench.py): pages served against PING and STATUS, the overview in headless
# Chromium, and live updates to 100 open pages (WEB_ROUNDS, WEB_SECONDS, WEB_CLIENTS, WEB_WRITES). Then an audit
# that ages (history): HISTORY_SYNCS (1,000) daily syncs of a 10,000-finding project with a real history's churn and
# a little triage, its sync and STATUS times and database size at syncs 10, 100 and 1,000; the curve goes to a
# temporary SVG, or to HISTORY_SVG when set (docs/performance/history.svg). And reads from a streaming replica
# (replica): FINDING SHOW from REPLICA_CLIENTS (50) reader clients for REPLICA_SECONDS (15) against barkeepd alone and
# against barkeepd with --read-database-url on a pg_basebackup standby of its embedded cluster.
# Installs redis-server (and, for the web part, chromium and the tests' Python packages) when missing. Builds in
# release mode.
#
# Usage: scripts/bench.sh [PART…] (make bench BENCH="PART…"): only those parts, of ping, sync, check, sync-cli,
# status, load, web, history and replica; all of them when none is named.
set -euo pipefail
cd "$(dirname "$0")/.."

parts=("$@")
for part in "${parts[@]}"; do
    case $part in
        ping | sync | check | sync-cli | status | load | web | history | replica) ;;
        *) echo "error: unknown part $part (ping, sync, check, sync-cli, status, load, web, history, replica)" >&2; exit 2 ;;
    esac
done
want() { [ ${#parts[@]} -eq 0 ] || [[ " ${parts[*]} " == *" $1 "* ]]; }

if want ping && ! command -v redis-server >/dev/null 2>&1; then
    echo "Installing redis-server (the benchmark's baseline)"
    sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends redis-server \
        || { "${sudo[@]}" apt-get update -q && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends redis-server; }
fi

# Only the clients the chosen parts run.
swift build -c release --product barkeepd
swift build -c release --product barkeep
if want ping; then swift build -c release --product barkeep-bench; fi
if want sync || want check || want history; then swift build -c release --product barkeep-sync-bench; fi
if want status; then swift build -c release --product barkeep-status-bench; fi
if want web; then swift build -c release --product barkeep-web-bench; fi
bin=$(swift build -c release --show-bin-path)

work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
    [ -n "${daemon:-}" ] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
    [ -n "${redis:-}" ] && kill -TERM "$redis" 2>/dev/null && wait "$redis" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
if want ping; then
    daemon_port=$(free_port)
    redis_port=$(free_port)

    # No HTTP listener: these rows do not use it, and its default port may be taken on a shared machine.
    "$bin/barkeepd" --data-dir "$work/data" --listen "127.0.0.1:$daemon_port" --no-http --log-level warning \
        2>"$work/barkeepd.log" &
    daemon=$!
    redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --maxclients 4000 \
        --daemonize no --logfile "$work/redis.log" &
    redis=$!

    # The daemon first starts its embedded PostgreSQL, which takes a while on a busy machine.
    ready=
    for _ in $(seq 1 480); do
        kill -0 "$daemon" 2>/dev/null || { echo "error: barkeepd stopped: $(tail -1 "$work/barkeepd.log")" >&2; exit 1; }
        if [ -S "$work/data/barkeep.sock" ] && "$bin/barkeep-bench" --target probe="127.0.0.1:$daemon_port" \
            --connections 1 --pipeline 1 --rounds 1 >/dev/null 2>&1 && redis-cli -p "$redis_port" ping >/dev/null 2>&1
        then
            ready=1
            break
        fi
        sleep 0.5
    done
    [ -n "$ready" ] || { echo "error: barkeepd or redis-server did not start in 240 s (see $work/barkeepd.log)" >&2; exit 1; }

    # The reader command: STATUS of a small project (kept while nothing changes), on connections that said HELLO
    # with a reader token; redis answers GET of a value as long as STATUS's reply.
    socket="unix:$work/data/barkeep.sock"
    "$bin/barkeep" --server "$socket" project create bench >/dev/null
    reader=$("$bin/barkeep" --server "$socket" token create bench-reader --role reader 2>/dev/null)
    hello="HELLO protocol=3 token=$reader"
    reader_request="STATUS bench"
    reply_size=$(python3 - "$daemon_port" "$hello" "$reader_request" <<'PY'
import socket, sys
connection = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
reader = connection.makefile("rb")
def ask(line):
    connection.sendall(line.encode() + b"\r\n")
    size = 0
    while True:
        reply = reader.readline()
        size += len(reply)
        if reply.startswith((b"OK", b"ERR")):
            if reply.startswith(b"ERR"):
                sys.exit(f"refused: {line.split()[0]}: {reply.decode().strip()}")
            return size
ask(sys.argv[2])
print(ask(sys.argv[3]))
PY
)
    redis-cli -p "$redis_port" set bench "$(head -c "$reply_size" /dev/zero | tr '\0' x)" >/dev/null

    pipelined=(--connections "${CONNECTIONS:-1000}" --pipeline "${PIPELINE:-100}" --rounds "${ROUNDS:-7}")
    # Unpipelined: one request in flight on each connection, the next sent once its reply is in.
    unpipelined=(--connections "${UNPIPELINED_CONNECTIONS:-50}" --pipeline 1 --batches "${BATCHES:-400}"
        --rounds "${ROUNDS:-7}")
    targets=(--target "barkeepd=127.0.0.1:$daemon_port" --target "redis-server=127.0.0.1:$redis_port")
    echo "== PING: barkeepd against redis-server (inline PING), same client, rounds alternating"
    "$bin/barkeep-bench" "${targets[@]}" "${pipelined[@]}"
    echo
    echo "== The general request path: a quoted \"PING\" goes through the tokenizer, command table and handler"
    "$bin/barkeep-bench" "${targets[@]}" --request '"PING"' "${pipelined[@]}"
    echo
    echo "== The general request path unpipelined: quoted \"PING\", one request in flight on each connection"
    "$bin/barkeep-bench" "${targets[@]}" --request '"PING"' "${unpipelined[@]}"
    reader_targets=("${targets[@]}" --hello-for "barkeepd=$hello" --request-for "barkeepd=$reader_request"
        --request-for "redis-server=GET bench")
    echo
    echo "== A reader command: $reader_request ($reply_size bytes, kept) as a reader, against GET of as many bytes"
    "$bin/barkeep-bench" "${reader_targets[@]}" "${pipelined[@]}"
    echo
    echo "== The same unpipelined: one request in flight on each connection"
    "$bin/barkeep-bench" "${reader_targets[@]}" "${unpipelined[@]}"
fi

# The daemons are stopped first: the benchmarks that follow run their own PostgreSQL and want both cores.
cleanup
daemon=
redis=
if want sync; then
    echo
    echo "== Scanner sync: a generated project synced with a real history's churn (3% new, 3% fixed, 1% reopened, a tenth"
    echo "   moved, 1% changed) and with no change, against parse + raw COPY of the same file; then its initial import into"
    echo "   1,000 screens against the same import without screens; each sync's WAL bytes and rows written (PostgreSQL's"
    echo "   counters: pg_current_wal_lsn, pg_stat_user_tables)"
    "$bin/barkeep-sync-bench" ${SYNC_SIZES:-10000 100000 1000000}
fi

if want check; then
    echo
    echo "== Check: barkeep check's planning (CHECK, read-only) of a ${CHECK_SIZE:-100000}-finding scan with a real history's"
    echo "   churn, against the sync of the same scan (each with its parse); the issue's goal is a ratio within 1.5"
    "$bin/barkeep-sync-bench" --check ${CHECK_SIZE:-100000}
fi

if want history; then
    echo
    echo "== Three years of daily scans: ${HISTORY_SYNCS:-1000} syncs of a 10,000-finding project (about 1% new and fixed,"
    echo "   3% moved, a few changed and reopened, a little triage between them), autovacuum as configured: sync and STATUS"
    echo "   times, the database's and the events table's size at syncs 10, 100 and 1,000"
    "$bin/barkeep-sync-bench" --history --syncs "${HISTORY_SYNCS:-1000}" --svg "${HISTORY_SVG:-$work/history.svg}"
fi

if want sync-cli; then
    echo
    echo "== Scanner sync from the CLI, end to end: barkeep ingest of a real-shaped ${SYNC_CLI_COUNT:-100000}-finding scan"
    echo "   (first imports, median of 3; syncs with a real history's churn: 3% new, 3% fixed, 1% reopened, a tenth"
    echo "   moved, 1% changed; syncs of a commit that changed no finding) against json.load + TSV + psql \\copy into an"
    echo "   unindexed table"
    rules=../shared/fixtures/duo_scan/all-rules.json
    if [ -f "$rules" ]; then
        python3 scripts/sync_cli_bench.py --bin "$bin" --rules "$rules" --count "${SYNC_CLI_COUNT:-100000}"
    else
        echo "skipped: the shared fixtures ($rules) are not beside the checkout"
    fi
fi

if want status; then
    echo
    echo "== The dashboard: STATUS of 1,000 screens, 100,000 findings, 16,000 pose results, beside a PING round trip"
    "$bin/barkeep-status-bench" --rounds "${STATUS_ROUNDS:-300}" ${STATUS_PLANS:+--plans}
fi

if want web; then
    echo
    echo "== The web dashboard: pages of 1,000 screens, 100,000 findings served over HTTP beside PING and STATUS over the"
    echo "   line protocol; the overview in headless Chromium; live updates to ${WEB_CLIENTS:-100} open pages and a browser"
    browser_tools=()
    while IFS= read -r line; do browser_tools+=("$line"); done < <(scripts/browser-test-tools.sh)
    python=$(scripts/python-test-tools.sh)
    BARKEEP_CHROMIUM=${browser_tools[0]} BARKEEP_CHROMEDRIVER=${browser_tools[1]} "$bin/barkeep-web-bench" \
        --rounds "${WEB_ROUNDS:-200}" --seconds "${WEB_SECONDS:-60}" --clients "${WEB_CLIENTS:-100}" \
        --writes "${WEB_WRITES:-3}" \
        --python "$python" --script "$PWD/scripts/web_bench.py"
fi

if want replica; then
    echo
    echo "== Reads from a streaming replica: FINDING SHOW from ${REPLICA_CLIENTS:-50} clients for ${REPLICA_SECONDS:-15} s, barkeepd"
    echo "   alone against barkeepd reading from a pg_basebackup standby of its embedded cluster (docs/operations.md,"
    echo "   \"Read replicas\"), rounds alternating; on one machine the standby shares its cores: this is the routing's cost"
    rules=../shared/fixtures/duo_scan/all-rules.json
    if [ ! -f "$rules" ]; then
        echo "skipped: the shared fixtures ($rules) are not beside the checkout"
    else
        replica_work=$(mktemp -d)
        chmod 755 "$replica_work"
        as_server=()
        [ "$(id -u)" -eq 0 ] && as_server=(runuser -u postgres --)
        replica_port=$(free_port)
        start_replica_daemon() {
            "$bin/barkeepd" --data-dir "$replica_work/data" --listen "127.0.0.1:$replica_port" --no-http \
                --pool-size "${POOL_SIZE:-4}" --log-level warning "$@" 2>>"$replica_work/barkeepd.log" &
            daemon=$!
            for _ in $(seq 1 240); do "$bin/barkeep" ping >/dev/null 2>&1 && return; sleep 0.5; done
            echo "error: barkeepd did not start (see $replica_work/barkeepd.log)" >&2
            exit 1
        }
        stop_replica_daemon() { kill -TERM "$daemon" && wait "$daemon" 2>/dev/null || true; daemon=; }
        export BARKEEP_SERVER="unix:$replica_work/data/barkeep.sock"
        start_replica_daemon
        "$bin/barkeep" project create reads >/dev/null
        "$bin/barkeep" ingest reads "$rules" >/dev/null
        reader=$("$bin/barkeep" token create replica-reader --role reader | head -n 1)
        numbers=$("$bin/barkeep" --json findings reads | python3 -c 'import json, sys; print(",".join(str(f["id"]) for f in json.load(sys.stdin)))')
        # The standby, as docs/operations.md sets one up: a base backup over the embedded cluster's socket.
        pidfile="$replica_work/data/pg/postmaster.pid"
        pg_bin=$(dirname "$(readlink -f "/proc/$(sed -n 1p "$pidfile")/exe")")
        standby="$replica_work/standby"
        standby_port=$(free_port)
        mkdir -m 700 "$standby"
        [ ${#as_server[@]} -gt 0 ] && chown postgres "$standby"
        "${as_server[@]}" "$pg_bin/pg_basebackup" -D "$standby" -R -X stream -c fast -h "$(sed -n 5p "$pidfile")" \
            -p "$(sed -n 4p "$pidfile")" -U barkeep
        printf "unix_socket_directories = '%s'\nport = %s\n" "$standby" "$standby_port" \
            | "${as_server[@]}" tee -a "$standby/postgresql.auto.conf" >/dev/null
        "${as_server[@]}" "$pg_bin/pg_ctl" start -w -D "$standby" -l "$standby/server.log" >/dev/null
        stop_standby() { "${as_server[@]}" "$pg_bin/pg_ctl" stop -w -m fast -D "$standby" >/dev/null 2>&1 || true; }
        replica_url="host=$standby port=$standby_port user=barkeep dbname=barkeep"
        read_round() {
            python3 scripts/load.py --mode finding-show --port "$replica_port" --token "$reader" --project reads \
                --finding-ids "$numbers" --clients "${REPLICA_CLIENTS:-50}" --seconds "${REPLICA_SECONDS:-15}" \
                --rate-file "$replica_work/rate" >"$replica_work/reads.out" \
                || { cat "$replica_work/reads.out"; stop_standby; exit 1; }
            cat "$replica_work/rate"
        }
        # Rounds in the order alone, replica, replica, alone.
        alone=("$(read_round)")
        stop_replica_daemon
        start_replica_daemon --read-database-url "$replica_url"
        replica_rates=("$(read_round)")
        replica_rates+=("$(read_round)")
        "$bin/barkeep" stats | sed -n 's/^Read replica: */  read replica: /p'
        stop_replica_daemon
        start_replica_daemon
        alone+=("$(read_round)")
        stop_replica_daemon
        stop_standby
        python3 - "${alone[@]}" "${replica_rates[@]}" <<'PYTHON'
import sys
alone, replica = [float(x) for x in sys.argv[1:3]], [float(x) for x in sys.argv[3:5]]
print("barkeepd alone        (FINDING SHOW/s): " + " ".join(f"{x:.1f}" for x in alone))
print("barkeepd with replica (FINDING SHOW/s): " + " ".join(f"{x:.1f}" for x in replica))
print(f"ratio with replica / alone: {sum(replica) / sum(alone):.2f}")
PYTHON
        rm -rf "$replica_work"
    fi
fi

want load || exit 0
history=../shared/fixtures/duo_scan/history/NetNewsWire
if [ ! -d "$history" ]; then
    echo
    echo "== Load and FINDING SET against pgbench: skipped, the shared fixtures ($history) are not beside the checkout"
    exit 0
fi
work=$(mktemp -d)
chmod 755 "$work"
load_port=$(free_port)
pool=${POOL_SIZE:-4}
"$bin/barkeepd" --data-dir "$work/load" --listen "127.0.0.1:$load_port" --pool-size "$pool" --no-http --log-level warning \
    2>"$work/load.log" &
daemon=$!
export BARKEEP_SERVER="unix:$work/load/barkeep.sock"
for _ in $(seq 1 120); do "$bin/barkeep" ping >/dev/null 2>&1 && break; sleep 0.5; done
for project in load verdicts; do
    "$bin/barkeep" project create "$project" >/dev/null
    "$bin/barkeep" ingest "$project" "$history/14-834decfa.json" >/dev/null
    "$bin/barkeep" screen add "$project" iOS --path 'iOS/**' >/dev/null
done
token=$("$bin/barkeep" token create load-client --role writer | head -n 1)
numbers() {
    "$bin/barkeep" --json findings "$1" | python3 -c 'import json, sys; print(",".join(str(f["id"]) for f in json.load(sys.stdin)))'
}

echo
echo "== FINDING SET from ${LOAD_CLIENTS:-1000} clients against pgbench sending the same statements on $pool connections"
# The embedded cluster's own programs, socket and port, from its postmaster.pid (pid, data directory, start time,
# port, socket directory): pgbench talks to the very database barkeepd uses, as the superuser barkeepd connects as.
pidfile="$work/load/pg/postmaster.pid"
pg_bin=$(dirname "$(readlink -f "/proc/$(sed -n 1p "$pidfile")/exe")")
pg_connection=(-h "$(sed -n 5p "$pidfile")" -p "$(sed -n 4p "$pidfile")" -U barkeep)
sql() { "$pg_bin/psql" "${pg_connection[@]}" -d barkeep -Atc "$1"; }
project_id=$(sql "SELECT id FROM projects WHERE name = 'verdicts'")
findings=$(sql "SELECT max(number) FROM findings WHERE project_id = $project_id")
token_id=$(sql "SELECT id FROM tokens WHERE name = 'load-client'")
seconds=${FINDING_SET_SECONDS:-30}
run_pgbench() {
    "$pg_bin/pgbench" "${pg_connection[@]}" -n -M extended -c "$pool" -j 2 -T "$seconds" \
        -f scripts/finding-set.pgbench -D project=verdicts -D "project_id=$project_id" -D "token_id=$token_id" \
        -D actor=token:load-client -D "findings=$findings" barkeep >"$work/pgbench.out" 2>&1 \
        || { cat "$work/pgbench.out"; exit 1; }
    sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' "$work/pgbench.out"
}
run_daemon() {
    python3 scripts/load.py --mode finding-set --port "$load_port" --token "$token" --project verdicts \
        --finding-ids "$(seq -s , 1 "$findings")" --clients "${LOAD_CLIENTS:-1000}" --seconds "$seconds" \
        --rate-file "$work/rate" >"$work/finding-set.out" || { cat "$work/finding-set.out"; exit 1; }
    cat "$work/rate"
}
# Two rounds each, in the order pgbench, barkeepd, barkeepd, pgbench, so a drift of the machine's load falls on both.
pgbench_rates=("$(run_pgbench)")
daemon_rates=("$(run_daemon)")
grep -E '^(triage|error replies)' "$work/finding-set.out" | sed 's/^/  barkeepd /'
daemon_rates+=("$(run_daemon)")
grep -E '^(triage|error replies)' "$work/finding-set.out" | sed 's/^/  barkeepd /'
pgbench_rates+=("$(run_pgbench)")
grep -E '^latency average' "$work/pgbench.out" | sed 's/^/  pgbench /'
python3 - "${pgbench_rates[@]}" "${daemon_rates[@]}" <<'PYTHON'
import sys
pgbench, daemon = [float(x) for x in sys.argv[1:3]], [float(x) for x in sys.argv[3:5]]
ratio = sum(daemon) / sum(pgbench)
print("pgbench  (transactions/s): " + " ".join(f"{x:.1f}" for x in pgbench))
print("barkeepd (FINDING SET/s):  " + " ".join(f"{x:.1f}" for x in daemon))
print(f"ratio barkeepd / pgbench: {ratio:.2f}" + ("" if ratio >= 1 else "  (BELOW the target of 1)"))
PYTHON

echo
echo "== Load: ${LOAD_CLIENTS:-1000} clients mixing STATUS, FINDING SET and INGEST for ${LOAD_SECONDS:-30} s"
python3 scripts/load.py --port "$load_port" --token "$token" --project load --finding-ids "$(numbers load)" \
    --scan "$history/13-085aec06.json" --scan "$history/14-834decfa.json" \
    --clients "${LOAD_CLIENTS:-1000}" --seconds "${LOAD_SECONDS:-30}" --pid "$daemon"
