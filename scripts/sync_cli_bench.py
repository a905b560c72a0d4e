#!/usr/bin/env python3
"""make bench: a real-shaped scanner sync from the CLI, end to end, against Python + psql in the same run.

Generates a duo_scan file of COUNT findings shaped like the scanner's own output (every field, the rule's title,
source and advice on every finding, `json.dump(indent=2)` as duo_scan writes it) and later scans with the churn the
issue measured on a real history: each round 3% new (half in files that had findings, half in new files), 3% fixed,
1% reopened (a third of what the round before fixed), every finding of a tenth of the files moved down three lines,
and 1% edited in place (changed); plus scans of a commit that changed no finding (the same findings, other bytes).
Starts the release barkeepd on its embedded PostgreSQL and times, as wall-clock of whole processes:

- first import: `barkeep ingest` of the initial file into a fresh project, then one churned scan (not timed: the
  history's first fix, which the next round reopens); after the reads below, ROUNDS - 1 more imports of the same
  file, each into a new project of its own beside the others' findings: the figure is the median of ROUNDS;
- churned sync: `barkeep ingest` of each later churned scan (the figure is the median of ROUNDS, 3);
- no-change sync: `barkeep ingest` of each scan that changed nothing (median of ROUNDS);
- check: `barkeep check --format markdown` (a pull request's job) of each churned scan just before its sync, as a
  ratio to that sync (median); and one `--format json`, which lists every tracked finding too;
- reading it back: `barkeep findings --status all` (every finding, the table) and `barkeep report --format
  markdown` of the project after the syncs, against raw `COPY` out of the same rows through psql (median of 3);
- baseline: Python's `json.load` of the same file, a TSV of its findings' fields, and `psql \\copy` of it into an
  UNLOGGED table without indexes on the same cluster (psql from the cluster's own bin directory), alternated with
  each sync so that noise falls on both; median.

Prints the times and the ratios to the baseline. Then the peak memory of a valid upload: barkeepd's VmHWM increase
(reset through /proc/PID/clear_refs) while it imports the initial file, and a file of --tiny tiny findings, each
into a new project, as a ratio to the file's size.
"""

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def load_rules(path):
    """One finding per rule from a real duo_scan output: the rule's texts and a real snippet."""
    with open(path) as handle:
        findings = json.load(handle)["findings"]
    rules = {}
    for finding in findings:
        rules.setdefault(finding["rule"], finding)
    return [rules[key] for key in sorted(rules)]


# The churn of one later scan, as the issue measured it on a real history (mastodon-ios-shaped, 100,000 findings):
# 3% new, 3% fixed, 1% reopened, 10% moved; and 1% edited in place (pass 2's changed), as real histories have too.
FIXED_KEYS = 3  # each round fixes the findings of three keys (of 100): 3%; the first of them comes back next round
MOVED_FILES = 10  # each round moves every finding of one file in ten down three lines: 10%
CHANGED_KEY = 50  # round r edits the flagged line of key CHANGED_KEY + r: 1%
NEW_PERCENT = 3


def key(index):
    """A finding's place among 100 keys, spread over files (37 is prime to 100): who is fixed, reopened or edited."""
    return index * 37 % 100


def fixed_keys(round_number):
    return range(10 + FIXED_KEYS * (round_number - 1), 10 + FIXED_KEYS * round_number)


def is_present(index, round_number):
    """Whether an original finding is in scan `round_number`: not fixed by then, or fixed and reopened since."""
    for earlier in range(1, round_number + 1):
        keys = fixed_keys(earlier)
        if key(index) in keys and not (key(index) == keys[0] and earlier < round_number):
            return False
    return True


def scan(count, round_number, rules, files_scanned_extra=0):
    """The scanner's report for `round_number` (0: the initial scan). Round r fixes 3% of the original findings
    (keys 10 + 3(r-1) to 12 + 3(r-1)), reopens a third of those round r-1 fixed, moves every finding of a tenth of
    the files down three lines, edits 1% in place (key 50 + r), and adds 3% new findings: half in files that had
    findings (far below them), half in new files. What a round fixed, moved, edited or added stays so after it.
    `files_scanned_extra` changes the file's bytes alone: a scan of a commit that changed no finding."""
    findings = []

    def add(rule, path, line, snippet):
        findings.append(
            {
                "id": f"{rule['rule']}:{path}:{line}",
                "rule": rule["rule"],
                "title": rule["title"],
                "severity": rule["severity"],
                "skill": rule["skill"],
                "file": path,
                "line": line,
                "snippet": snippet,
                "source": rule["source"],
                "advice": rule["advice"],
            }
        )

    for index in range(count):
        if not is_present(index, round_number):
            continue
        rule = rules[index % len(rules)]
        screen = index // 40
        path = f"App/Features/Feature{screen // 25}/Screen{screen}ViewController.swift"
        moved = 3 * sum(1 for earlier in range(1, round_number + 1) if earlier % MOVED_FILES == screen % MOVED_FILES)
        edited = " // reviewed" if CHANGED_KEY < key(index) <= CHANGED_KEY + round_number else ""
        add(rule, path, 20 + (index % 40) * 7 + moved, f"{rule['snippet']} // item {index % 40}{edited}")
    per_round = count * NEW_PERCENT // 100
    for earlier in range(1, round_number + 1):
        for number in range(per_round):
            rule = rules[(number + earlier) % len(rules)]
            if number % 2 == 0:
                screen = (number * 7 + earlier) % (count // 40)
                path = f"App/Features/Feature{screen // 25}/Screen{screen}ViewController.swift"
                line = 2_000 + earlier * per_round + number
            else:
                path = f"App/New/Round{earlier}/Screen{number // 80}View.swift"
                line = 20 + (number // 2 % 40) * 7
            add(rule, path, line, f"{rule['snippet']} // added in round {earlier}, {number}")

    by_severity = {name: 0 for name in ["critical", "high", "medium", "low", "info"]}
    by_rule, by_skill = {}, {}
    for finding in findings:
        by_severity[finding["severity"]] = by_severity.get(finding["severity"], 0) + 1
        by_rule[finding["rule"]] = by_rule.get(finding["rule"], 0) + 1
        by_skill[finding["skill"]] = by_skill.get(finding["skill"], 0) + 1
    return {
        "tool": "duo_scan",
        "version": "1.2.2",
        "root": "/src/App",
        "read_only": True,
        "source_files_scanned": count // 40 + 1 + round_number * per_round // 80 + files_scanned_extra,
        "dependencies_included": False,
        "project": {"lifecycle": "scene", "scene_manifest_found": True, "supports_multiple_scenes": True},
        "summary": {"by_severity": by_severity, "by_rule": by_rule, "by_skill": by_skill},
        "findings": findings,
        "inventory": {"UIBarButtonItem": count // 10, "UINavigationController": count // 400},
    }


FIELDS = ["id", "rule", "title", "severity", "skill", "file", "line", "snippet", "source", "advice"]


def copy_text(value):
    """A value in COPY's text format."""
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def baseline(path, tsv, psql):
    """json.load + TSV + psql \\copy into the unindexed table; returns seconds."""
    start = time.monotonic()
    with open(path) as handle:
        report = json.load(handle)
    with open(tsv, "w") as out:
        for finding in report["findings"]:
            out.write("\t".join(copy_text(finding.get(key, "")) for key in FIELDS))
            out.write("\n")
    subprocess.run(
        psql + ["-c", "TRUNCATE baseline_rows", "-c", f"\\copy baseline_rows FROM '{tsv}'"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.monotonic() - start


def ingest(barkeep, environment, project, path):
    """`barkeep ingest`, wall clock; returns (seconds, its JSON answer)."""
    start = time.monotonic()
    result = subprocess.run(
        [barkeep, "--json", "ingest", project, path], env=environment, check=True, capture_output=True, text=True
    )
    return time.monotonic() - start, json.loads(result.stdout)


TICKS = os.sysconf("SC_CLK_TCK")


def check(barkeep, environment, project, path, form):
    """`barkeep check --no-record --format FORM`, wall clock; its exit status is the gate's (0 or 1)."""
    start = time.perf_counter()
    completed = subprocess.run(
        [barkeep, "check", project, path, "--no-record", "--no-renames", "--format", form], env=environment,
        capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if completed.returncode not in (0, 1):
        raise SystemExit(f"barkeep check failed ({completed.returncode}): {completed.stderr}")
    return seconds


def stat_fields(pid):
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()


def cpu_seconds(daemon, postmaster):
    """CPU time so far of barkeepd and of its PostgreSQL (the postmaster, the backends it has reaped, the live ones)."""
    total = 0
    fields = stat_fields(daemon)
    total += int(fields[11]) + int(fields[12])
    fields = stat_fields(postmaster)
    total += sum(int(value) for value in fields[11:15])
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = stat_fields(entry)
        except OSError:
            continue
        if int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


def daemon_cpu_seconds(daemon):
    """CPU time so far of barkeepd alone (its share of an ingest's CPU, the rest being PostgreSQL's and the CLI's)."""
    fields = stat_fields(daemon)
    return (int(fields[11]) + int(fields[12])) / TICKS


def own_cpu_seconds():
    """CPU time of this process and of the children it has waited for (psql, and its backend through the cluster)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def memory_kib(pid, field="VmHWM"):
    """A field of /proc/PID/status in KiB: VmHWM (peak resident), VmRSS (resident now)."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def peak_rss_kib(pid):
    return memory_kib(pid, "VmHWM")


def reset_peak(pid):
    """Resets barkeepd's VmHWM to its resident size now (writing 5 to clear_refs); returns that size in KiB."""
    with open(f"/proc/{pid}/clear_refs", "w") as handle:
        handle.write("5")
    return memory_kib(pid, "VmRSS")


def tiny_scan(path, count):
    """A duo_scan file of `count` tiny findings (what bounds an upload's memory: the most findings per byte)."""
    with open(path, "w") as out:
        out.write('{"tool":"duo_scan","findings":[')
        out.write(",".join(
            f'{{"rule":"D{index % 7}","severity":"low","file":"F{index % 13}.swift","line":{index % 9 + 1},"snippet":""}}'
            for index in range(count)
        ))
        out.write("]}")


def measure_memory(barkeep, environment, daemon, label, path):
    """barkeepd's peak RSS growth while it ingests `path` into a new project, and its ratio to the file's size."""
    subprocess.run([barkeep, "project", "create", "memory"], env=environment, check=True, capture_output=True)
    before = reset_peak(daemon)
    seconds, answer = ingest(barkeep, environment, "memory", path)
    growth = (memory_kib(daemon, "VmHWM") - before) * 1024
    size = os.path.getsize(path)
    print(
        f"  {label}: {answer['new']:,} new in {seconds:.2f} s; peak RSS +{growth / 1e6:.1f} MB "
        f"for {size / 1e6:.1f} MB: {growth / size:.2f}x  (target 2)"
    )


def start_daemon(bin_dir, work, name):
    """The release barkeepd on a new embedded cluster in work/name, answering; returns (process, environment, data)."""
    data = os.path.join(work, name)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    daemon = subprocess.Popen(
        # No HTTP: its default port may be another daemon's on the same machine.
        [os.path.join(bin_dir, "barkeepd"), "--data-dir", data, "--listen", f"127.0.0.1:{port}", "--no-http",
         "--log-level", "warning"],
        stderr=open(os.path.join(work, name + ".log"), "w"),
    )
    environment = dict(os.environ, BARKEEP_SERVER=f"unix:{data}/barkeep.sock")
    barkeep = os.path.join(bin_dir, "barkeep")
    deadline = time.monotonic() + 120
    while subprocess.run([barkeep, "ping"], env=environment, capture_output=True).returncode != 0:
        if daemon.poll() is not None or time.monotonic() > deadline:
            daemon.kill()
            sys.exit("barkeepd did not start: see " + os.path.join(work, name + ".log"))
        time.sleep(0.2)
    return daemon, environment, data


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the release build's bin directory")
    parser.add_argument("--rules", required=True, help="a duo_scan output with one finding per rule (its texts)")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3, help="churned syncs (and baseline runs)")
    parser.add_argument("--keep", help="a directory to keep the generated files in")
    parser.add_argument("--tiny", type=int, default=1_000_000, help="tiny findings of the memory measurement (0: none)")
    arguments = parser.parse_args()

    rules = load_rules(arguments.rules)
    work = tempfile.mkdtemp(prefix="barkeep-sync-cli-")
    os.chmod(work, 0o755)
    files_dir = arguments.keep or work
    os.makedirs(files_dir, exist_ok=True)

    def generate(name, report):
        path = os.path.join(files_dir, f"scan-{arguments.count}-{name}.json")
        if not os.path.exists(path):
            with open(path, "w") as out:
                json.dump(report(), out, indent=2)
        return path

    # Round 0 is the first import; round 1 gives the history a first fix (what round 2 reopens) and is not timed;
    # rounds 2 and on are the churned syncs timed. Then as many scans of a commit that changed no finding.
    last = arguments.rounds + 1
    files = [generate(str(number), lambda: scan(arguments.count, number, rules)) for number in range(last + 1)]
    unchanged = [
        generate(f"{last}-unchanged{extra}", lambda: scan(arguments.count, last, rules, files_scanned_extra=extra))
        for extra in range(1, arguments.rounds + 1)
    ]
    size = os.path.getsize(files[0])
    print(f"generated {arguments.count:,} findings, {len(rules)} rules, {size / 1e6:.1f} MB (initial scan)")

    barkeep = os.path.join(arguments.bin, "barkeep")
    daemon, environment, data = start_daemon(arguments.bin, work, "data")
    try:
        with open(os.path.join(data, "pg", "postmaster.pid")) as handle:
            postmaster = int(handle.readline())
        pg_bin = os.path.dirname(os.readlink(f"/proc/{postmaster}/exe"))
        psql = [os.path.join(pg_bin, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", os.path.join(data, "pg"),
                "-U", "barkeep", "-d", "barkeep"]
        columns = ", ".join(f"{key} {'int' if key == 'line' else 'text'}" for key in FIELDS)
        subprocess.run(psql + ["-c", f"CREATE UNLOGGED TABLE baseline_rows ({columns})"], check=True)
        subprocess.run([barkeep, "project", "create", "bench"], env=environment, check=True, capture_output=True)

        tsv = os.path.join(work, "rows.tsv")

        def measured_ingest(project, path):
            """`barkeep ingest` of `path` into `project`: (seconds, CPU seconds of the CLI (a child of this script),
            barkeepd and PostgreSQL, barkeepd's own CPU seconds, its JSON answer)."""
            mine, cpu = own_cpu_seconds(), cpu_seconds(daemon.pid, postmaster)
            alone = daemon_cpu_seconds(daemon.pid)
            seconds, answer = ingest(barkeep, environment, project, path)
            used = own_cpu_seconds() - mine + cpu_seconds(daemon.pid, postmaster) - cpu
            return seconds, used, daemon_cpu_seconds(daemon.pid) - alone, answer

        first, first_cpu, first_daemon, answer = measured_ingest("bench", files[0])
        print(
            f"first import: {first:.2f} s ({answer['new']:,} new), CPU of the CLI, barkeepd and PostgreSQL "
            f"{first_cpu:.2f} s (barkeepd {first_daemon:.2f} s)"
        )
        seconds, answer = ingest(barkeep, environment, "bench", files[1])
        print(f"history: {seconds:.2f} s, not timed (new {answer['new']}, fixed {answer['fixed']})")

        checks = []

        def timed(label, paths, checked=False):
            """Each of `paths` synced, alternating with a baseline run of the same file; returns the medians. With
            `checked`, each is first checked (`barkeep check --format markdown`, what a pull request's job runs)
            against the state its sync then changes: the check's time beside the sync of the same scan."""
            baselines, syncs, baseline_cpus, sync_cpus = [], [], [], []
            for path in paths:
                if checked:
                    checks.append(check(barkeep, environment, "bench", path, "markdown"))
                # The baseline's CPU: this script's json.load and TSV, psql, and psql's backend (reaped by the
                # cluster).
                mine, cluster = own_cpu_seconds(), cpu_seconds(daemon.pid, postmaster)
                baselines.append(baseline(path, tsv, psql))
                baseline_cpus.append(own_cpu_seconds() - mine + cpu_seconds(daemon.pid, postmaster) - cluster)
                seconds, used, by_daemon, answer = measured_ingest("bench", path)
                sync_cpus.append(used)
                syncs.append(seconds)
                print(
                    f"{label} {len(syncs)}: baseline {baselines[-1]:.2f} s (CPU {baseline_cpus[-1]:.2f} s), "
                    f"sync {seconds:.2f} s (CPU {used:.2f} s, barkeepd {by_daemon:.2f} s) (new {answer['new']}, "
                    f"fixed {answer['fixed']}, reopened {answer['reopened']}, changed {answer['changed']}, "
                    f"moved {answer['moved']}, unchanged {answer['unchanged']})"
                )
            return tuple(statistics.median(values) for values in (baselines, syncs, baseline_cpus, sync_cpus))

        json_check = check(barkeep, environment, "bench", files[2], "json")
        base, sync, base_cpu, sync_cpu = timed("churned sync", files[2:], checked=True)
        same_base, same, same_base_cpu, same_cpu = timed("no-change sync", unchanged)
        print(f"baseline (json.load + TSV + psql \\copy, median): {base:.2f} s")
        print(
            f"churned sync (barkeep ingest, median of {len(files) - 2}): {sync:.2f} s   ratio {sync / base:.2f}  "
            "(target 1.5)"
        )
        print(f"no-change sync (median of {len(unchanged)}): {same:.2f} s   ratio {same / same_base:.2f}  (target 0.75)")
        checked = statistics.median(checks)
        print(
            f"check of each churned scan before its sync (barkeep check --format markdown, median of {len(checks)}): "
            f"{checked:.2f} s   ratio to its sync {checked / sync:.2f}  (target 1.5); --format json, listing every "
            f"tracked finding too: {json_check:.2f} s"
        )
        print(f"barkeepd peak RSS: {peak_rss_kib(daemon.pid) / 1024:.0f} MiB")

        # Reading it all back: every finding of the project listed (`barkeep findings --status all`, the table) and
        # the readiness report in Markdown, against raw COPY out of the same rows (psql to /dev/null), alternating.
        copies, listings, reports = [], [], []
        project_rows = "SELECT * FROM findings WHERE project_id = (SELECT id FROM projects WHERE name = 'bench')"
        for _ in range(3):
            start = time.monotonic()
            subprocess.run(psql + ["-c", f"\\copy ({project_rows}) TO '/dev/null'"], check=True)
            copies.append(time.monotonic() - start)
            for times, command in (
                (listings, ["findings", "bench", "--status", "all"]),
                (reports, ["report", "bench", "--format", "markdown"]),
            ):
                start = time.monotonic()
                subprocess.run([barkeep] + command, env=environment, check=True, stdout=subprocess.DEVNULL)
                times.append(time.monotonic() - start)
        copied = statistics.median(copies)
        print(
            f"every finding read back (median of 3): raw COPY out {copied:.2f} s; barkeep findings --status all "
            f"{statistics.median(listings):.2f} s (ratio {statistics.median(listings) / copied:.2f}); barkeep report "
            f"--format markdown {statistics.median(reports):.2f} s (ratio {statistics.median(reports) / copied:.2f})"
        )

        # More first imports of the same file, each into a new project (its table already holds the others'
        # findings, so these are if anything slower): one import is a single sample, the figure is their median.
        firsts, first_cpus = [first], [first_cpu]
        for number in range(2, arguments.rounds + 1):
            project = f"first-{number}"
            subprocess.run([barkeep, "project", "create", project], env=environment, check=True, capture_output=True)
            seconds, used, _, answer = measured_ingest(project, files[0])
            firsts.append(seconds)
            first_cpus.append(used)
            print(f"first import {number}: {seconds:.2f} s (CPU {used:.2f} s, {answer['new']:,} new)")
        first, first_cpu = statistics.median(firsts), statistics.median(first_cpus)
        print(f"first import (median of {len(firsts)}): {first:.2f} s   ratio {first / base:.2f}  (target 2)")
        print(
            f"CPU seconds (less sensitive to other load): baseline {base_cpu:.2f}, churned sync {sync_cpu:.2f} "
            f"(ratio {sync_cpu / base_cpu:.2f}), no-change sync {same_cpu:.2f} (ratio {same_cpu / same_base_cpu:.2f}), "
            f"first import {first_cpu:.2f} (ratio {first_cpu / base_cpu:.2f})"
        )

    finally:
        daemon.terminate()
        daemon.wait()

    try:
        # Memory of a valid upload: each file's import as the first thing a new daemon does (a daemon that has
        # ingested before keeps freed memory resident, which hides the growth), the peak reset just before.
        print("peak memory of a valid upload (barkeepd's VmHWM increase over the file's size):")
        uploads = [("real-shaped", files[0])]
        if arguments.tiny:
            tiny = os.path.join(files_dir, f"tiny-{arguments.tiny}.json")
            if not os.path.exists(tiny):
                tiny_scan(tiny, arguments.tiny)
            uploads.append((f"{arguments.tiny:,} tiny findings", tiny))
        for number, (label, path) in enumerate(uploads):
            daemon, environment, _ = start_daemon(arguments.bin, work, f"memory{number}")
            try:
                measure_memory(barkeep, environment, daemon.pid, label, path)
            finally:
                daemon.terminate()
                daemon.wait()
    finally:
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
