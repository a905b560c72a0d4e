"""Drives `barkeep mcp` with the official MCP Python SDK (`mcp` from PyPI) as a coding agent would, against a real
barkeepd. Run by Tests/barkeepTests/MCPServerTests.swift with one JSON argument:

    {"barkeep": PATH, "server": "127.0.0.1:PORT", "writer": TOKEN, "reader": TOKEN, "scan": PATH}

The project `app` exists, with the screen Inbox owning Sources/Inbox/**, and nothing ingested yet. Every check is
an assert; on success it prints one JSON object of what it saw (the numbers it changed), for the Swift test.
"""

import asyncio
import base64
import hashlib
import json
import os
import sys
import tempfile
import time

import jsonschema
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

CONFIG = json.loads(sys.argv[1])
READ_TOOLS = {
    "list_projects", "project_status", "list_screens", "screen_detail", "list_findings", "finding_detail",
    "blocked_items", "pose_matrix", "checklist", "readiness_report", "check_scan",
}
WRITE_TOOLS = {
    "set_finding_status", "assign_findings", "comment_finding", "set_step", "add_item", "record_pose", "ingest_scan",
}


def server(token, *options):
    return StdioServerParameters(
        command=CONFIG["barkeep"],
        args=["mcp", "--project", "app", *options],
        env={"BARKEEP_SERVER": CONFIG["server"], "BARKEEP_TOKEN": token, "NO_COLOR": "1"},
    )


def scan_copy(version):
    """The scan of CONFIG["scan"] with another scanner version: other bytes, the same findings."""
    with open(CONFIG["scan"], encoding="utf-8") as f:
        document = json.load(f)
    document["version"] = version
    path = os.path.join(tempfile.mkdtemp(prefix="barkeep-mcp"), f"scan-{version}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f)
    return path


def sparse_file(size):
    """A file of `size` bytes none of which is on disk: read whole, it would cost that much memory."""
    path = os.path.join(tempfile.mkdtemp(prefix="barkeep-mcp"), "huge.json")
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def check_schemas(tools):
    """Every schema is a valid JSON Schema (draft 2020-12, MCP's default); returns the tools by name."""
    by_name = {}
    for tool in tools:
        for schema in (tool.input_schema, tool.output_schema):
            assert schema is not None and schema.get("type") == "object", (tool.name, schema)
            jsonschema.validators.validator_for(schema).check_schema(schema)
        assert "project" in tool.input_schema["properties"], tool.name
        hints = tool.annotations
        assert hints is not None and hints.read_only_hint == (tool.name in READ_TOOLS), tool.name
        assert hints.destructive_hint is not None and hints.idempotent_hint is not None, tool.name
        by_name[tool.name] = tool
    return by_name


async def call(session, tools, name, **arguments):
    """Calls a tool that must succeed; checks its structured content against its output schema."""
    result = await session.call_tool(name, arguments)
    text = result.content[0].text if result.content else ""
    assert not result.is_error, (name, arguments, text)
    assert text, name
    jsonschema.validate(result.structured_content, tools[name].output_schema)
    return result.structured_content, text


async def tool_error(session, name, **arguments):
    """Calls a tool that must fail as a tool error; returns its text (CODE: message)."""
    result = await session.call_tool(name, arguments)
    assert result.is_error, (name, arguments)
    return result.content[0].text


async def writer_session(seen):
    async with stdio_client(server(CONFIG["writer"])) as (read, write), ClientSession(read, write) as session:
        initialized = await session.initialize()
        assert initialized.protocol_version == "2025-11-25", initialized.protocol_version
        assert initialized.server_info.name == "barkeep"
        assert initialized.capabilities.tools is not None and initialized.capabilities.prompts is not None
        listed = await session.list_tools()
        tools = check_schemas(listed.tools)
        assert set(tools) == READ_TOOLS | WRITE_TOOLS, sorted(tools)
        called = set()

        async def use(name, **arguments):
            called.add(name)
            return await call(session, tools, name, **arguments)

        projects, _ = await use("list_projects")
        assert [p["name"] for p in projects["projects"]] == ["app"], projects
        run, text = await use("ingest_scan", path=CONFIG["scan"])
        assert run["run"] == 1 and run["new"] == 4 and not run["repeat"], run
        again, text = await use("ingest_scan", path=CONFIG["scan"])
        assert again["repeat"] and "nothing changed" in text, (again, text)
        # The same scan checked: everything tracked, nothing new, and the gate passes.
        scan_text = open(CONFIG["scan"], encoding="utf-8").read()
        checked, text = await use("check_scan", scan=scan_text, fail_on="info", record=False)
        summary = checked["summary"]
        assert summary["new"] == 0 and summary["tracked"] == 4 and summary["result"] == "pass", checked
        assert text.startswith("Check of app against latest: 0 new"), text
        refused = await tool_error(session, "check_scan", scan="not json")
        assert refused.startswith("BADARG: the duo-scan upload is not valid"), refused

        status, text = await use("project_status")
        assert "Inbox" in [s["key"] for s in status["screens"]], status
        # Screens as `barkeep status` counts them: the app area's row is no screen.
        assert text.startswith("app: 0 of 1 screen done; 4 findings need work."), text
        assert status["totals"]["screens"] == 1 and len(status["screens"]) == 2, status
        screens, _ = await use("list_screens", not_done=True, kind="screen")
        assert screens["matched"] == 1 and screens["screens"][0]["key"] == "Inbox", screens
        # A page at a time: the reply says how many rows in all and where the next page starts.
        first, text = await use("list_screens", limit=1)
        assert len(first["screens"]) == 1 and first["page"] == {"offset": 0, "limit": 1, "total": 2, "next_offset": 1}
        assert "the next page is offset 1" in text, text
        second, _ = await use("list_screens", limit=1, offset=1)
        assert second["page"]["next_offset"] is None and second["screens"] != first["screens"], second
        rows, text = await use("project_status", limit=1, offset=1)
        assert len(rows["screens"]) == 1 and rows["page"]["total"] == 2 and "(the last page)" in text, (rows, text)
        assert [s["key"] for s in (await use("project_status", screens="Inb*"))[0]["screens"]] == ["Inbox"]
        detail, text = await use("screen_detail", screen="Inbox")
        assert detail["why"] and "Inbox is not done" in text, (detail, text)
        assert len(detail["steps"]) == 12 and {f["rule"] for f in detail["findings"]} == {"DUO007", "DUO003", "DUO011"}

        findings, _ = await use("list_findings", rule=["DUO003"], severity=["low", "medium"])
        numbers = sorted(f["id"] for f in findings["findings"])
        assert findings["count"] == 2 and len(numbers) == 2, findings
        everything, _ = await use("list_findings", status=["all"], limit=1)
        first = everything["findings"][0]["id"]
        assert everything["count"] == 1 and everything["truncated"] and everything["next"] == first, everything
        # Pages by number: following next lists every finding once, then a last page with next null.
        listed, after = [first], first
        while after is not None:
            page, text = await use("list_findings", status=["all"], limit=3, after=after)
            listed += [f["id"] for f in page["findings"]]
            assert page["truncated"] == (page["next"] is not None), page
            after = page["next"]
        assert listed == sorted(listed) and len(listed) == 4, listed
        refused = await tool_error(session, "list_findings", limit=0)
        assert refused.startswith("BADARG: limit must be") and "1000" in refused, refused
        bar, _ = await use("list_findings", rule=["DUO007"])
        bar_number = bar["findings"][0]["id"]
        new, _ = await use("list_findings", new_in=1, owner="nobody", file="Sources")
        assert new["count"] == 4, new
        new, _ = await use("list_findings", new_in=1, file="Sources/Inbo")
        assert new["count"] == 0, new

        # An argument the tool does not know, or of the wrong type, is refused and changes nothing: not even a
        # misspelt dry_run, or a misspelt filter that would have chosen every severity.
        before, _ = await use("list_findings", status=["all"])
        refusals = [
            ({"numbers": [numbers[0]], "status": "approved", "dryrun": True},
             "BADARG: unknown argument 'dryrun' (did you mean 'dry_run'?)"),
            ({"rule": ["DUO003"], "severty": ["high"], "status": "approved"},
             "BADARG: unknown argument 'severty' (did you mean 'severity'?)"),
            ({"numbers": str(numbers[0]), "status": "approved"},
             f"BADARG: numbers must be an array of integers, not '{numbers[0]}'"),
            ({"numbers": [numbers[0]], "status": "approved", "dry_run": "false"},
             "BADARG: dry_run must be a boolean (true or false), not 'false'"),
            ({"numbers": [numbers[0]], "status": "aproved"},
             "BADARG: status must be one of approved, applied, verified, declined, kept, false_positive, not "
             "'aproved' (did you mean 'approved'?)"),
        ]
        for arguments, message in refusals:
            result = await session.call_tool("set_finding_status", arguments)
            assert result.is_error and result.content[0].text == message, (arguments, result.content)
        after, _ = await use("list_findings", status=["all"])
        assert after == before, (before, after)
        assert "NOTFOUND" in await tool_error(session, "list_findings", new_in=2)
        assert "BADARG" in await tool_error(session, "set_finding_status", numbers=[bar_number], status="false_positive")

        # A filter: a dry run first, then for real.
        preview, text = await use("set_finding_status", rule=["DUO003"], status="approved", dry_run=True)
        assert preview["dry_run"] and preview["changed"] == 2 and text.startswith("Would change 2 findings"), text
        assert {f["change"] for f in preview["findings"]} == {"would-change"}, preview
        done, text = await use("set_finding_status", rule=["DUO003"], current_status=["proposed"], status="approved")
        assert not done["dry_run"] and done["changed"] == 2 and text.startswith("Changed 2 findings"), text
        declined, _ = await use(
            "set_finding_status", numbers=[bar_number], status="declined", reason="the design keeps this bar")
        assert declined["findings"][0]["to"] == "declined", declined
        assert "BADARG" in await tool_error(session, "set_finding_status", numbers=[bar_number], status="kept")

        assigned, _ = await use("assign_findings", numbers=numbers, to="ana")
        assert assigned["changed"] == 2, assigned
        comment, _ = await use("comment_finding", number=numbers[0], text="checked on the inner display")
        assert comment["kind"] == "finding.comment", comment
        finding, _ = await use("finding_detail", number=numbers[0])
        assert finding["assignee"] == "ana" and finding["status"] == "approved", finding
        assert "finding.comment" in [e["kind"] for e in finding["history"]], finding["history"]

        step, _ = await use("set_step", screen="Inbox", step=2, state="done", note="back first")
        assert step["state"] == "done" and step["key"] == "order", step
        refused = await tool_error(session, "set_step", screen="Inbox", step="overflow", state="done")
        assert refused.startswith("CONFLICT:"), refused

        item, text = await use("add_item", screen="Inbox", step=5, title="Follow the bar axis", needs=["axisBehavior"])
        assert item["blocked"] and item["status"] == "blocked" and "27.1" in item["why"], item
        assert "blocked" in text, text
        blocked, _ = await use("blocked_items")
        assert [b["id"] for b in blocked["blocked"]] == [item["id"]], blocked
        pose, _ = await use("record_pose", screen="Inbox", pose="P1", result="passed", device="iPhone Duo")
        assert pose["result"] == "passed", pose
        everything, text = await use("pose_matrix", owner="nobody", screens="In*")
        assert everything["page"]["total"] == 1 and "1 screen in all, on this page." in text, (everything, text)
        matrix, _ = await use("pose_matrix", screen="Inbox")
        assert {"pose": "P1", "result": "passed"}.items() <= next(p for p in matrix["poses"] if p["pose"] == "P1").items()

        checklist, text = await use("checklist")
        assert [s["step"] for s in checklist["steps"]] == list(range(1, 13)), checklist
        assert checklist["steps"][0]["rules"] == ["DUO007"] and checklist["steps"][0]["asks"], checklist
        report, text = await use("readiness_report", screens="Inbox")
        assert report["format"] == "markdown" and "### Inbox" in report["report"], report
        assert text.startswith(report["report"]) and text.endswith("\n1 row in all, on this page.\n"), text
        first, text = await use("readiness_report", limit=1)
        assert first["page"] == {"offset": 0, "limit": 1, "total": 2, "next_offset": 1}, first["page"]
        assert "(1 to 1 of them by key)" in first["report"] and "the next page is offset 1" in text, text
        assert (await tool_error(session, "readiness_report", offset=5)) == \
            "BADARG: offset 5 is past the last of the 2 screens chosen"
        # The finding declined above is listed, with its reason, in the report's Declined section.
        declined_section = report["report"].split("\n## Declined\n")[1].split("\n## ")[0]
        assert f"| F-{bar_number} |" in declined_section, declined_section
        assert "the design keeps this bar" in declined_section, declined_section
        assert called == READ_TOOLS | WRITE_TOOLS, sorted((READ_TOOLS | WRITE_TOOLS) - called)

        # ingest_scan takes commit_time and force; what it refuses names them, never the CLI's --force or the
        # wire's commit-time.
        newer, older, untimed = (scan_copy(version) for version in ("1.2.3", "1.2.4", "1.2.5"))
        refused = await tool_error(session, "ingest_scan", path=newer, commit_time="2026-11-30T10:00:00+01:00")
        assert refused == "BADARG: commit_time needs commit", refused
        run, _ = await use("ingest_scan", path=newer, commit="aaaa1111aaaa", commit_time="2026-11-30T10:00:00+01:00")
        assert not run["repeat"] and run["new"] == 0 and run["fixed"] == 0, run
        older_commit = {"path": older, "commit": "bbbb2222bbbb", "commit_time": "2026-01-01T00:00:00Z"}
        refused = await tool_error(session, "ingest_scan", **older_commit)
        assert refused.startswith("CONFLICT: commit bbbb2222 (committed 2026-01-01T00:00:00Z) is older"), refused
        assert refused.endswith("; force: true to ingest it anyway") and "--" not in refused, refused
        refused = await tool_error(session, "ingest_scan", path=untimed, commit="cccc3333cccc")
        assert "(commit_time, or ingest from its checkout), or force: true to ingest it anyway" in refused, refused
        assert "commit-time" not in refused and "--" not in refused, refused
        forced, _ = await use("ingest_scan", force=True, **older_commit)
        assert forced["run"] == run["run"] + 1 and not forced["repeat"], (run, forced)

        # /dev/zero is no scan: refused at once, never read.
        started = time.monotonic()
        refused = await tool_error(session, "ingest_scan", path="/dev/zero")
        assert refused == "BADARG: cannot read /dev/zero: not a regular file but a character device", refused
        assert time.monotonic() - started < 10

        # A screenshot file is uploaded and the failure names it by its content hash; what is not an image is
        # refused before anything is sent.
        png = base64.b64decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEklEQVR4AWI6w2D8H4aZGJAAAAAA//8+M+ppAAAABklEQVQDAHPBBf8P8IOjAAAAAElFTkSuQmCC")
        shots = tempfile.mkdtemp()
        with open(os.path.join(shots, "p3.png"), "wb") as file:
            file.write(png)
        with open(os.path.join(shots, "notes.png"), "w") as file:
            file.write("not an image")
        failed, _ = await use("record_pose", screen="Inbox", pose="P3", result="failed",
                              screenshot_path=os.path.join(shots, "p3.png"), item="Toolbar overlaps the list")
        assert failed["result"] == "failed" and failed["screenshot"] == "sha256:" + hashlib.sha256(png).hexdigest(), failed
        refused = await tool_error(session, "record_pose", screen="Inbox", pose="P4", result="failed",
                                   screenshot_path=os.path.join(shots, "notes.png"), item="Clipped")
        assert refused.endswith("notes.png is not a screenshot: a screenshot must be a PNG or JPEG image"), refused
        assert refused.startswith("BADARG: "), refused

        # Arguments the schema refuses come back as tool errors, protocol misuse as JSON-RPC errors.
        assert (await tool_error(session, "list_findings", status=["bogus"])).startswith("BADARG:")
        assert (await tool_error(session, "screen_detail", screen="Nowhere")).startswith("NOTFOUND:")
        try:
            await session.call_tool("no_such_tool", {})
            raise AssertionError("an unknown tool was called")
        except MCPError as error:
            assert error.error.code == -32602, error

        prompts = await session.list_prompts()
        assert [p.name for p in prompts.prompts] == ["audit_screen"], prompts
        prompt = await session.get_prompt("audit_screen", {"screen": "Inbox"})
        text = prompt.messages[0].content.text
        assert "Inbox" in text and "container" in text and "### Inbox" in text and "DUO007" in text, text
        assert "the design keeps this bar" in text, text
        seen["approved"] = numbers
        seen["declined"] = bar_number


async def reader_session(seen):
    async with stdio_client(server(CONFIG["reader"])) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = check_schemas((await session.list_tools()).tools)
        await call(session, tools, "list_findings")
        # A reader may check a scan.
        checked, _ = await call(session, tools, "check_scan", scan=open(CONFIG["scan"], encoding="utf-8").read())
        assert checked["summary"]["result"] == "pass", checked
        refused = await tool_error(session, "set_finding_status", numbers=seen["approved"], status="applied")
        assert refused.startswith("FORBIDDEN:"), refused
        seen["reader_refusal"] = refused
        # A reader may not ingest: refused before the file is read (8 GiB, read whole, would take 8 GiB of memory).
        started = time.monotonic()
        refused = await tool_error(session, "ingest_scan", path=sparse_file(8 << 30))
        assert refused.startswith("FORBIDDEN: INGEST needs the writer role"), refused
        assert time.monotonic() - started < 10


async def read_only_session(seen):
    async with stdio_client(server(CONFIG["writer"], "--read-only")) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        tools = check_schemas((await session.list_tools()).tools)
        assert set(tools) == READ_TOOLS, sorted(tools)
        assert all(tool.annotations.read_only_hint for tool in tools.values())
        try:
            await session.call_tool("set_finding_status", {"numbers": [1], "status": "applied"})
            raise AssertionError("a write tool was called under --read-only")
        except MCPError as error:
            assert error.error.code == -32602 and "read-only" in error.error.message, error
        seen["read_only_tools"] = sorted(tools)


async def main():
    seen = {}
    await writer_session(seen)
    await reader_session(seen)
    await read_only_session(seen)
    print(json.dumps(seen))


asyncio.run(main())
