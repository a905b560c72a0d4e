#!/usr/bin/env python3
"""What barkeepd keeps resident: repeated uploads of a real-shaped scan, and replies its clients do not read.

Starts barkeepd from --bin on a new embedded cluster and prints its resident memory (VmRSS, and the peak VmHWM where
it says so):

- after each of --uploads uploads of the same real-shaped scan of --count findings (`barkeep ingest`; from the
  second on a repeat, which changes nothing), then after each of --syncs syncs alternating it with a churned scan;
- while two clients send `FINDINGS big` on a project of --items findings (seeded with one INSERT through the
  cluster's psql) and read nothing for --wait seconds, and then how long one client takes to read a whole reply.

The scans are scripts/sync_cli_bench.py's, from the rules of --rules (the shared fixtures' all-rules.json).
docs/performance.md ("Memory") has the figures, before and after the change that bounded them.
"""

import argparse
import json
import os
import socket
import subprocess
import tempfile
import time

import sync_cli_bench as bench


def ingest_all(barkeep, environment, daemon, project, paths):
    """`barkeep ingest` of each path in turn; prints the daemon's RSS after each."""
    subprocess.run([barkeep, "project", "create", project], env=environment, check=True, capture_output=True)
    print(f"  before: {bench.memory_kib(daemon, 'VmRSS') / 1024:.1f} MiB")
    for number, path in enumerate(paths, 1):
        seconds, answer = bench.ingest(barkeep, environment, project, path)
        print(
            f"  {number:2}: {bench.memory_kib(daemon, 'VmRSS') / 1024:.1f} MiB  ({seconds:.2f} s, run {answer['run']}, "
            f"new {answer['new']}, repeat {answer['repeat']})"
        )


def seed_items(psql, count):
    """`count` items in project big, numbered in FINDINGS order, in one statement."""
    subprocess.run(
        psql
        + [
            "-c",
            "INSERT INTO findings (project_id, source, title, severity, file, line, number) "
            "SELECT p.id, 'manual', 'item ' || i, 'low', 'Sources/F' || lpad((i / 100)::text, 6, '0') || '.swift', "
            f"i % 100 + 1, i FROM projects p, generate_series(1, {count}) AS i WHERE p.name = 'big'",
            "-c",
            f"UPDATE projects SET findings_numbered = {count} WHERE name = 'big'",
            "-c",
            "ANALYZE findings",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def read_reply(client):
    """Reads one reply to its final line; returns its size in bytes."""
    size, tail = 0, b""
    while True:
        chunk = client.recv(1 << 20)
        if not chunk:
            raise SystemExit("the daemon closed the connection mid-reply")
        size += len(chunk)
        tail = (tail + chunk)[-256:]
        last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
        if tail.endswith(b"\n") and (last.startswith(b"OK") or last.startswith(b"ERR")):
            return size


def unread_replies(socket_path, daemon, wait):
    """Two clients send FINDINGS and read nothing for `wait` seconds; then one client reads a whole reply."""
    with open(f"/proc/{daemon}/clear_refs", "w") as handle:
        handle.write("5")
    before = bench.memory_kib(daemon, "VmRSS")
    readers = []
    for _ in range(2):
        reader = socket.socket(socket.AF_UNIX)
        reader.connect(socket_path)
        reader.sendall(b"FINDINGS big\n")
        readers.append(reader)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.1)
    print(
        f"  two readers of FINDINGS big reading nothing for {wait} s: RSS {before / 1024:.1f} MiB before, "
        f"peak {bench.memory_kib(daemon, 'VmHWM') / 1024:.1f} MiB, {bench.memory_kib(daemon, 'VmRSS') / 1024:.1f} MiB now"
    )
    for reader in readers:
        reader.close()
    client = socket.socket(socket.AF_UNIX)
    client.connect(socket_path)
    start = time.monotonic()
    client.sendall(b"FINDINGS big\n")
    size = read_reply(client)
    print(f"  one reader reading at once: {size / 1e6:.1f} MB in {time.monotonic() - start:.2f} s")
    client.close()
    print(f"  after: RSS {bench.memory_kib(daemon, 'VmRSS') / 1024:.1f} MiB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the bin directory of barkeepd and barkeep")
    parser.add_argument("--rules", required=True, help="a duo_scan output with one finding per rule (its texts)")
    parser.add_argument("--count", type=int, default=100_000, help="findings of the uploaded scan")
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--syncs", type=int, default=8)
    parser.add_argument("--items", type=int, default=1_000_000, help="findings of the project FINDINGS reads")
    parser.add_argument("--wait", type=int, default=20, help="seconds the readers read nothing")
    arguments = parser.parse_args()

    rules = bench.load_rules(arguments.rules)
    work = tempfile.mkdtemp(prefix="barkeep-memory-")
    os.chmod(work, 0o755)
    files = []
    for round_number in range(2):
        path = os.path.join(work, f"scan-{round_number}.json")
        with open(path, "w") as out:
            json.dump(bench.scan(arguments.count, round_number, rules), out, indent=2)
        files.append(path)
    print(f"scan of {arguments.count:,} findings: {os.path.getsize(files[0]) / 1e6:.1f} MB")

    barkeep = os.path.join(arguments.bin, "barkeep")
    daemon, environment, data = bench.start_daemon(arguments.bin, work, "data")
    try:
        print(f"{arguments.uploads} uploads of the same scan:")
        ingest_all(barkeep, environment, daemon.pid, "same", [files[0]] * arguments.uploads)
        print(f"{arguments.syncs} syncs, the scan and a churned one in turn:")
        ingest_all(
            barkeep, environment, daemon.pid, "churn", [files[number % 2] for number in range(arguments.syncs)]
        )
        with open(os.path.join(data, "pg", "postmaster.pid")) as handle:
            postmaster = int(handle.readline())
        pg_bin = os.path.dirname(os.readlink(f"/proc/{postmaster}/exe"))
        psql = [os.path.join(pg_bin, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", os.path.join(data, "pg"),
                "-U", "barkeep", "-d", "barkeep"]
        subprocess.run([barkeep, "project", "create", "big"], env=environment, check=True, capture_output=True)
        seed_items(psql, arguments.items)
        print(f"FINDINGS of {arguments.items:,} findings:")
        unread_replies(os.path.join(data, "barkeep.sock"), daemon.pid, arguments.wait)
    finally:
        daemon.terminate()
        daemon.wait()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
