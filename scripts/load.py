#!/usr/bin/env python3
"""make bench, the load scenario: many clients at once, each mixing dashboard reads (STATUS), triage (FINDING SET)
and scan uploads (INGEST) against one barkeepd for a bounded time.

With --mode finding-set every request is `FINDING SET PROJECT N declined reason=R`, N a random finding number and R
a random number, so that each verdict changes its finding (writes the finding and an event), as the pgbench script
scripts/finding-set.pgbench does: the two rates are compared by make bench. With --mode finding-show every request is
`FINDING SHOW PROJECT N`, a read that a read replica serves (docs/operations.md, "Read replicas").

Prints, per kind of request and overall, how many were answered, the median and p99 latency, and every error code
seen; exits 1 when any reply is an error other than BUSY (the documented answer of a saturated pool) or a
connection fails. With --pid, also prints the daemon's peak resident memory (VmHWM) and its memory now (VmRSS).

Standard library only (asyncio): it is a development tool, never part of the product.
"""

import argparse
import asyncio
import random
import resource
import statistics
import sys
import time


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


async def read_reply(reader):
    """Reads one whole reply; returns its final line."""
    while True:
        line = await reader.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        if line.startswith(b"OK") or line.startswith(b"ERR"):
            return line.decode("utf-8", "replace").rstrip("\n")


async def client(number, args, scans, finding_ids, clock, results, start_gate):
    rng = random.Random(number)
    await start_gate.wait()
    try:
        reader, writer = await asyncio.open_connection(args.host, args.port, limit=16 << 20)
    except OSError as error:
        results["connect-failed"].append(str(error))
        clock["arrived"]()
        return
    try:
        # Checking a token reads the database: a saturated pool answers BUSY, and the client tries again.
        while True:
            writer.write(f"HELLO protocol=3 token={args.token}\n".encode())
            await writer.drain()
            hello = await read_reply(reader)
            if hello.startswith("OK"):
                break
            code = hello.split(" ")[1] if " " in hello else hello
            results["errors"][f"hello {code}"] = results["errors"].get(f"hello {code}", 0) + 1
            if code != "BUSY" or time.monotonic() >= clock["hello-deadline"]:
                return
            await asyncio.sleep(0.05 + rng.random() * 0.1)
        clock["arrived"]()
        await clock["measuring"].wait()
        while time.monotonic() < clock["deadline"]:
            draw = rng.random()
            if args.mode == "finding-show":
                kind, payload = "read", f"FINDING SHOW {args.project} {rng.choice(finding_ids)}\n".encode()
            elif args.mode == "finding-set":
                kind = "triage"
                number, reason = rng.choice(finding_ids), rng.randint(1, 1_000_000_000)
                payload = f"FINDING SET {args.project} {number} declined reason={reason}\n".encode()
            elif draw < args.status_share:
                kind, payload = "status", f"STATUS {args.project}\n".encode()
            elif draw < args.status_share + args.triage_share:
                kind = "triage"
                # Verdicts are allowed whatever the scans did to the finding meanwhile (a fixed finding cannot be
                # approved, only given a verdict).
                status = rng.choice(["declined", "kept", "false_positive"])
                payload = f"FINDING SET {args.project} {rng.choice(finding_ids)} {status} reason=load\n".encode()
            else:
                kind = "ingest"
                scan = scans[rng.randrange(len(scans))]
                payload = f"INGEST {args.project} format=duo-scan {len(scan)}\n".encode() + scan
            started = time.monotonic()
            writer.write(payload)
            await writer.drain()
            final = await read_reply(reader)
            elapsed = (time.monotonic() - started) * 1000
            if final.startswith("OK"):
                results["latency"][kind].append(elapsed)
                if time.monotonic() <= clock["deadline"]:
                    results["in-time"] += 1
            else:
                code = final.split(" ")[1] if " " in final else final
                key = f"{kind} {code}"
                results["errors"][key] = results["errors"].get(key, 0) + 1
                if code == "BUSY":
                    await asyncio.sleep(0.05 + rng.random() * 0.1)
    except (ConnectionError, OSError) as error:
        results["connection-lost"].append(str(error))
    finally:
        clock["arrived"]()
        writer.close()


def memory(pid):
    fields = {}
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
    except OSError:
        pass
    return fields.get("VmHWM", "?"), fields.get("VmRSS", "?")


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("--mode", choices=["mixed", "finding-set", "finding-show"], default="mixed")
    parser.add_argument("--scan", action="append", default=[], help="duo_scan files to upload in turn (mixed)")
    parser.add_argument("--finding-ids", required=True, help="comma-separated finding numbers of the project to triage")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--status-share", type=float, default=0.6)
    parser.add_argument("--triage-share", type=float, default=0.35)
    parser.add_argument("--pid", type=int)
    parser.add_argument("--rate-file", help="where to write the rate of OK answers per second (for make bench)")
    args = parser.parse_args()
    if args.mode == "mixed" and not args.scan:
        parser.error("the mixed mode needs --scan")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, args.clients + 256)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))

    scans = [open(path, "rb").read() for path in args.scan]
    finding_ids = [int(text) for text in args.finding_ids.split(",") if text]
    results = {
        "latency": {"status": [], "triage": [], "ingest": [], "read": []},
        "errors": {},
        "connect-failed": [],
        "connection-lost": [],
        "in-time": 0,
    }
    gate = asyncio.Event()
    # The measured time starts when every client has said HELLO (or failed to): in the finding-set mode the rate
    # is the steady one, comparable with pgbench's, which connects before it counts. The mixed mode starts at once.
    arrived = set()
    clock = {"measuring": asyncio.Event(), "hello-deadline": time.monotonic() + args.seconds + 60}

    def arrive():
        task = asyncio.current_task()
        if task in arrived:
            return
        arrived.add(task)
        if len(arrived) == args.clients and not clock["measuring"].is_set():
            start_measuring()

    def start_measuring():
        clock["began"] = time.monotonic()
        clock["deadline"] = clock["began"] + args.seconds
        clock["measuring"].set()

    clock["arrived"] = arrive
    tasks = [
        asyncio.create_task(client(number, args, scans, finding_ids, clock, results, gate))
        for number in range(args.clients)
    ]
    if args.mode == "mixed":
        start_measuring()
    gate.set()
    await asyncio.gather(*tasks)
    duration = time.monotonic() - clock["began"]

    everything = [value for values in results["latency"].values() for value in values]
    print(f"{args.clients} clients for {duration:.1f} s: {len(everything)} requests answered OK "
          f"({len(everything) / duration:.0f}/s)")
    # The steady rate: answers that came within the measured time, over that time (the requests still in flight at
    # its end are answered afterwards and not counted).
    rate = results["in-time"] / args.seconds
    print(f"answered within the {args.seconds:.0f} s: {results['in-time']} ({rate:.1f}/s)")
    if args.rate_file:
        with open(args.rate_file, "w") as out:
            out.write(f"{rate:.1f}\n")
    print(f"{'request':8} {'answered':>9} {'median':>10} {'p99':>10}")
    for kind, values in results["latency"].items():
        if not values and args.mode != "mixed":
            continue
        print(f"{kind:8} {len(values):9d} {percentile(values, 0.5):8.1f} ms {percentile(values, 0.99):8.1f} ms")
    print(f"{'all':8} {len(everything):9d} {percentile(everything, 0.5):8.1f} ms {percentile(everything, 0.99):8.1f} ms")
    if results["errors"]:
        print("error replies: " + ", ".join(f"{key} × {count}" for key, count in sorted(results["errors"].items())))
    else:
        print("error replies: none")
    if args.pid:
        peak, now = memory(args.pid)
        print(f"barkeepd memory: peak (VmHWM) {peak}, now (VmRSS) {now}")
    failures = [key for key in results["errors"] if not key.endswith(" BUSY")]
    if results["connect-failed"] or results["connection-lost"] or failures:
        print(f"FAILED: unexpected errors {failures}, connect failures {len(results['connect-failed'])}, "
              f"connections lost {len(results['connection-lost'])} "
              f"{(results['connect-failed'] + results['connection-lost'])[:3]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
