#!/usr/bin/env python3
"""Runs the CI job that docs/ci.md documents, as the CI would, for CIDocumentTests.

Reads the first ```yaml block under the heading naming the CI (`GitHub Actions` or `GitLab CI`), parses it with a
real YAML parser (PyYAML) and runs it:

- GitHub Actions: the one job's steps in order. A `run:` step runs as GitHub runs it (`bash --noprofile --norc -eo
  pipefail`), in the checkout, with the job's and the step's `env:`; after a failed step only steps whose `if:`
  says `always()` or `failure()` run. Of `uses:` steps, `actions/checkout` is the checkout the test made and
  `github/codeql-action/upload-sarif` is recorded (its `sarif_file`) for the test to validate; any other action is
  an error, so the document cannot grow a step this runner silently skips.
- GitLab CI: the one job's `before_script:` and `script:` lines, in one shell that stops at the first failing line (as GitLab's runner
  does), with the job's `variables:`; then its `artifacts:` are recorded.

`${{ … }}` expressions in `env:` values are looked up in --expression NAME=VALUE (a missing one is an error).
GITHUB_API_URL and CI_API_V4_URL point at a local HTTP server that records every request and answers 201, so a
step that posts the pull request's comment with curl really sends it. Prints one JSON object: the steps and their
exit status, the job's result, the recorded requests, and the SARIF files and artifacts named.
"""

import argparse
import http.server
import json
import os
import re
import subprocess
import sys
import threading

import yaml


def block(document, heading):
    """The text of the first ```yaml block after the heading line that contains `heading`."""
    lines = document.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("#") and heading in line), None)
    if start is None:
        raise SystemExit(f"no heading with {heading!r} in the document")
    opening = next(i for i in range(start, len(lines)) if lines[i].strip() == "```yaml")
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i].strip() == "```")
    return "\n".join(lines[opening + 1 : closing])


class Recorder(http.server.BaseHTTPRequestHandler):
    requests = []

    def do_POST(self):  # noqa: N802 (the standard library's name)
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8")
        Recorder.requests.append(
            {"method": "POST", "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
             "body": body}
        )
        answer = b'{"id": 1}'
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


def resolve(value, expressions):
    """A GitHub `env:` value with its `${{ … }}` expressions replaced."""

    def one(match):
        name = match.group(1).strip()
        if name not in expressions:
            raise SystemExit(f"the document uses ${{{{ {name} }}}}, which the test gives no value")
        return expressions[name]

    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


def run_script(script, environment, directory):
    completed = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=directory, env=environment, capture_output=True, text=True, timeout=300,
    )
    return completed.returncode, completed.stdout, completed.stderr


def github(workflow, base, expressions, directory):
    jobs = workflow["jobs"]
    if len(jobs) != 1:
        raise SystemExit(f"expected one job, found {sorted(jobs)}")
    job = next(iter(jobs.values()))
    job_env = {k: resolve(v, expressions) for k, v in (job.get("env") or {}).items()}
    steps, sarif, failed = [], [], False
    for step in job["steps"]:
        name = step.get("name") or step.get("uses") or "run"
        condition = str(step.get("if", ""))
        if failed and "always()" not in condition and "failure()" not in condition:
            steps.append({"name": name, "status": None})
            continue
        if "uses" in step:
            action = step["uses"].split("@")[0]
            if action == "actions/checkout":
                steps.append({"name": name, "status": 0})
            elif action == "github/codeql-action/upload-sarif":
                sarif.append(os.path.join(directory, step["with"]["sarif_file"]))
                steps.append({"name": name, "status": 0})
            else:
                raise SystemExit(f"the runner does not know the action {action}")
            continue
        environment = dict(base)
        environment.update(job_env)
        environment.update({k: resolve(v, expressions) for k, v in (step.get("env") or {}).items()})
        status, out, err = run_script(step["run"], environment, directory)
        steps.append({"name": name, "status": status, "stdout": out, "stderr": err})
        failed = failed or status != 0
    return {"steps": steps, "job": "failure" if failed else "success", "sarif": sarif, "artifacts": []}


def gitlab(pipeline, base, directory):
    jobs = {k: v for k, v in pipeline.items() if isinstance(v, dict) and "script" in v}
    if len(jobs) != 1:
        raise SystemExit(f"expected one job, found {sorted(jobs)}")
    job = next(iter(jobs.values()))
    environment = dict(base)
    environment.update({k: str(v) for k, v in (job.get("variables") or {}).items()})
    lines = list(job.get("before_script") or []) + list(job["script"])
    status, out, err = run_script("\n".join(lines), environment, directory)
    artifacts = job.get("artifacts") or {}
    named = list(artifacts.get("paths") or []) + [p for r in (artifacts.get("reports") or {}).values() for p in
                                                  ([r] if isinstance(r, str) else r)]
    return {
        "steps": [{"name": "script", "status": status, "stdout": out, "stderr": err}],
        "job": "failure" if status != 0 else "success",
        "sarif": [],
        "artifacts": [os.path.join(directory, p) for p in named],
        "when": artifacts.get("when"),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doc", required=True)
    parser.add_argument("--ci", choices=["github", "gitlab"], required=True)
    parser.add_argument("--directory", required=True, help="the checkout the job runs in")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE the CI (or its secrets) sets")
    parser.add_argument("--expression", action="append", default=[], help="EXPRESSION=VALUE for ${{ }}")
    options = parser.parse_args()

    with open(options.doc, encoding="utf-8") as handle:
        document = handle.read()
    text = block(document, "GitHub Actions" if options.ci == "github" else "GitLab CI")
    parsed = yaml.safe_load(text)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api = f"http://127.0.0.1:{server.server_address[1]}"

    base = dict(os.environ)
    base.update(dict(item.split("=", 1) for item in options.env))
    base["GITHUB_API_URL"] = api
    base["CI_API_V4_URL"] = api + "/api/v4"
    expressions = dict(item.split("=", 1) for item in options.expression)

    result = github(parsed, base, expressions, options.directory) if options.ci == "github" else gitlab(
        parsed, base, options.directory)
    server.shutdown()
    result["requests"] = Recorder.requests
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
