"""The web dashboard in a real browser (headless chromium through chromium-driver), against a real daemon the Swift
suite (BrowserTests) started and seeded: one browser for every scenario, each result one JSON line on stdout
({"check": NAME, "ok": true|false, "detail": ...}); the Swift side asserts on them.

Arguments: a JSON object with base (the daemon's http://127.0.0.1:PORT), project, tokens (reader, writer, revokee
and its name), screens (the keys `barkeep status --json` lists), hostile (the number of the finding whose snippet is
markup), hostile_snippet, shot_screen (the screen with an uploaded screenshot), bulk_rule (a rule whose findings the
writer's bulk verdict sets), barkeep (the CLI's path; BARKEEP_SERVER is in the environment), and screenshots (a
directory to write docs/web's images into, or null).
"""

import http.client
import json
import os
import subprocess
import sys
import time
import traceback
import urllib.parse

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import Select

import barkeep_browser as bb

SETTINGS = json.loads(sys.argv[1])
BASE = SETTINGS["base"]
PROJECT = SETTINGS["project"]
QUOTED = urllib.parse.quote(PROJECT, safe="")


def report(check, ok, detail=None):
    print(json.dumps({"check": check, "ok": bool(ok), "detail": detail}), flush=True)


def path(driver):
    return urllib.parse.urlparse(driver.current_url).path


def open_page(driver, url):
    driver.get(BASE + url)
    bb.wait_until(driver, lambda d: d.execute_script("return document.readyState") == "complete",
                  message="the page " + url + " to load")


def fetch(driver, url, method="GET", body=None, credentials="same-origin"):
    """fetch() from the page, as its own script would: [status, text]."""
    return driver.execute_async_script(
        """
        var done = arguments[arguments.length - 1];
        var options = {method: arguments[1], credentials: arguments[3], redirect: "manual"};
        if (arguments[2] !== null) {
            options.body = arguments[2];
            options.headers = {"Content-Type": "application/x-www-form-urlencoded"};
        }
        fetch(arguments[0], options).then(function (r) {
            return r.text().then(function (t) { done([r.status, t]); });
        }).catch(function (e) { done([0, String(e)]); });
        """, url, method, body, credentials)


def cli(*arguments):
    result = subprocess.run([SETTINGS["barkeep"], *arguments], capture_output=True, text=True, timeout=30)
    return result.returncode, result.stdout, result.stderr


def finding_status(number):
    code, out, err = cli("--json", "finding", "show", PROJECT, str(number))
    if code != 0:
        raise RuntimeError("finding show failed: " + err)
    body = json.loads(out)
    return (body.get("finding") or body).get("status")


def sign_out(driver):
    driver.delete_all_cookies()


def plain(method, url, body=None, headers=None):
    """One HTTP request without the browser (redirects not followed): (status, headers by lowercase name, body)."""
    parsed = urllib.parse.urlparse(BASE)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    connection.request(method, url, body=body, headers=headers or {})
    response = connection.getresponse()
    fields = {}
    for name, value in response.getheaders():
        fields.setdefault(name.lower(), []).append(value)
    text = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, fields, text


def check_http():
    """The sign-in flow's wire, without the browser: what no browser test could see (HttpOnly cookies)."""
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    token = SETTINGS["tokens"]["writer"]
    query, _, _ = plain("POST", "/signin?token=" + token, body="next=/", headers=form)
    bad, _, bad_body = plain("POST", "/signin", body="token=bk_nope&next=/", headers=form)
    good, fields, _ = plain("POST", "/signin", body=urllib.parse.urlencode(
        {"token": token, "next": "/projects/" + QUOTED}), headers=form)
    cookie = (fields.get("set-cookie") or [""])[0]
    report("sign-in: a token in the URL 400, a bad one 401 with the form, a good one 303 to next with the cookie",
           query == 400 and bad == 401 and 'id="signin"' in bad_body and good == 303
           and fields.get("location") == ["/projects/" + QUOTED]
           and all(part in cookie for part in ("HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=43200"))
           and cookie.startswith("barkeep_session="),
           {"query": query, "bad": bad, "good": good, "cookie": cookie.split("=")[0], "fields": fields.get("location")})
    session = {"Cookie": cookie.split(";")[0]}
    page, page_fields, page_body = plain("GET", "/projects/" + QUOTED, headers=session)
    part, _, part_body = plain("GET", "/projects/" + QUOTED, headers=dict(session, **{"X-Barkeep-Part": "main"}))
    stylesheet = page_body.split('rel="stylesheet" href="')[1].split('"')[0] if 'rel="stylesheet"' in page_body else ""
    asset, asset_fields, _ = plain("GET", stylesheet or "/static/none")
    report("pages carry the security headers; X-Barkeep-Part: main is only <main>; static assets cached for ever",
           page == 200 and page_fields.get("content-security-policy", [""])[0].startswith("default-src 'none'")
           and page_fields.get("x-content-type-options") == ["nosniff"]
           and part == 200 and part_body.startswith("<main") and part_body.rstrip().endswith("</main>")
           and asset == 200 and "immutable" in asset_fields.get("cache-control", [""])[0],
           {"page": page, "part": part_body[:40], "asset": [asset, asset_fields.get("cache-control")]})
    csrf = page_body.split('name="csrf-token" content="')[1].split('"')[0]
    out, out_fields, _ = plain("POST", "/signout", body="csrf=" + csrf, headers=dict(session, **form))
    after, after_fields, _ = plain("GET", "/projects/" + QUOTED, headers=session)
    report("sign-out ends the session and clears the cookie",
           out == 303 and "Max-Age=0" in out_fields.get("set-cookie", [""])[0] and after == 303
           and after_fields.get("location", [""])[0].startswith("/signin?next="),
           {"out": out, "after": after})


def pages():
    """The signed-in pages axe checks."""
    shot = urllib.parse.quote(SETTINGS["shot_screen"], safe="")
    return [
        ("projects", "/"),
        ("overview", "/projects/" + QUOTED),
        ("screen", "/projects/" + QUOTED + "/screens/" + shot),
        ("findings", "/projects/" + QUOTED + "/findings"),
        ("finding", "/projects/" + QUOTED + "/findings/" + str(SETTINGS["hostile"])),
        ("poses", "/projects/" + QUOTED + "/poses"),
        ("report", "/projects/" + QUOTED + "/report"),
    ]


def check_signin_and_overview(driver):
    open_page(driver, "/projects/" + QUOTED)
    report("no cookie: the sign-in page", path(driver) == "/signin"
           and driver.find_elements(By.CSS_SELECTOR, "form#signin"), driver.current_url)
    status, _ = fetch(driver, "/api/v1/projects", credentials="omit")
    report("the API without a token: 401", status == 401, status)
    bb.sign_in(driver, BASE, SETTINGS["tokens"]["reader"], "/projects/" + QUOTED)
    report("sign in with a reader's token", path(driver) == "/projects/" + QUOTED, driver.current_url)
    cookies = driver.get_cookies()
    session = [c for c in cookies if c["name"] == "barkeep_session"]
    report("the session cookie is HttpOnly and SameSite=Strict",
           len(session) == 1 and session[0].get("httpOnly") and session[0].get("sameSite") == "Strict", cookies)
    rows = [row.get_attribute("data-screen")
            for row in driver.find_elements(By.CSS_SELECTOR, "table#screens tr[data-screen]")]
    report("the overview lists exactly the screens of barkeep status --json",
           sorted(rows) == sorted(SETTINGS["screens"]), {"page": rows, "status": SETTINGS["screens"]})


def check_shared_link(driver):
    """Signed in, a link from another site (here a data: page, an opaque origin) still opens the page: the
    SameSite=Strict cookie is left off the cross-site navigation, and the daemon's reload page brings it back."""
    target = "/projects/" + QUOTED + "/poses"
    driver.get("data:text/html,<a id=go href='" + BASE + target + "'>the poses</a>")
    driver.find_element(By.ID, "go").click()
    bb.wait_until(driver, lambda d: d.current_url.startswith(BASE) and path(d) == target
                  and d.find_elements(By.CSS_SELECTOR, "main h1"), message="the shared link to open signed in")
    status, _, body = plain("GET", target, headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    direct, fields, _ = plain("GET", target)
    report("a link followed from another site opens the page signed in (the Strict cookie sent on the reload)",
           path(driver) == target and status == 200 and 'http-equiv="refresh"' in body and direct == 303
           and fields.get("location", [""])[0].startswith("/signin"),
           {"now": driver.current_url, "status": status, "direct": direct})
    icon = driver.find_element(By.CSS_SELECTOR, "link[rel=icon]").get_attribute("href")
    favicon, favicon_fields, _ = plain("GET", "/favicon.ico")
    location = favicon_fields.get("location", [""])[0]
    served, served_fields, svg = plain("GET", location or "/static/none")
    report("the icon: named by every page, /favicon.ico redirects to it",
           icon == BASE + location and favicon == 301 and served == 200
           and served_fields.get("content-type") == ["image/svg+xml"] and svg.startswith("<svg"),
           {"icon": icon, "favicon": [favicon, location], "served": served})


def check_hostile_snippet(driver):
    alerts = []
    url = "/projects/" + QUOTED + "/findings/" + str(SETTINGS["hostile"])
    open_page(driver, url)
    try:
        alerts.append(driver.switch_to.alert.text)
    except NoAlertPresentException:
        pass
    snippet = driver.find_element(By.CSS_SELECTOR, "pre.snippet").text
    images = driver.execute_script("return document.querySelectorAll('main img').length")
    report("a snippet of markup shows as text and runs nothing",
           snippet == SETTINGS["hostile_snippet"] and images == 0 and not alerts,
           {"snippet": snippet, "images": images, "alerts": alerts})


def check_finding_rows(driver):
    # The "Where and what" cell: the location, then the title on a line of its own (not run into the path).
    open_page(driver, "/projects/" + QUOTED + "/findings?status=all")
    gaps = driver.execute_script(
        "return Array.from(document.querySelectorAll('table#findings td span.what')).map(function (title) {"
        "  var where = title.parentElement.querySelector('code');"
        "  return title.getBoundingClientRect().top - where.getBoundingClientRect().bottom; });")
    report("a finding's title sits on its own line under its location in the findings table",
           len(gaps) > 0 and min(gaps) >= 0, {"titles": len(gaps), "smallest gap": min(gaps) if gaps else None})


def check_reader_write(driver):
    number = SETTINGS["hostile"]
    before = finding_status(number)
    forms = driver.find_elements(By.CSS_SELECTOR, "form#status, form#bulk, form#comment")
    csrf = driver.find_element(By.CSS_SELECTOR, "meta[name=csrf-token]").get_attribute("content")
    body = urllib.parse.urlencode({"csrf": csrf, "number": str(number), "new-status": "declined",
                                   "reason": "a reader tries"})
    status, text = fetch(driver, "/projects/" + QUOTED + "/findings/status", method="POST", body=body)
    after = finding_status(number)
    report("a reader's write is refused (403) and nothing changed",
           status == 403 and before == after and not forms,
           {"status": status, "before": before, "after": after, "forms": len(forms)})


def check_screenshot(driver):
    open_page(driver, "/projects/" + QUOTED + "/screens/" + urllib.parse.quote(SETTINGS["shot_screen"], safe=""))
    images = driver.find_elements(By.CSS_SELECTOR, "img.screenshot")
    width = 0
    if images:
        width = bb.wait_until(
            driver, lambda d: d.execute_script(
                "var i = document.querySelector('img.screenshot'); return i.complete ? i.naturalWidth || -1 : 0;"),
            message="the screenshot to load")
    report("a screenshot uploaded from the CLI shows on the screen page", width > 0,
           {"images": len(images), "naturalWidth": width})


def check_report(driver):
    bb.script_errors(driver)  # what earlier pages logged
    open_page(driver, "/projects/" + QUOTED + "/report")
    heading = driver.find_element(By.CSS_SELECTOR, "h1").text
    refused = [m for m in bb.script_errors(driver) if "Content Security Policy" in m]
    rules = driver.execute_script(
        "var s = document.querySelector('style'); return s && s.sheet ? s.sheet.cssRules.length : -1;")
    shots = bb.wait_until(driver, lambda d: d.execute_script(
        "var i = Array.from(document.querySelectorAll('img.shot'));"
        "return i.every(function (x) { return x.complete; }) ? i.map(function (x) {"
        " return [x.getAttribute('src').slice(0, 22), x.naturalWidth, x.getAttribute('width')]; }) : null;"),
        message="the report's screenshots to decode")
    report("the readiness report page renders with its own stylesheet allowed by hash and nothing refused",
           PROJECT in heading and not refused and rules > 0, {"h1": heading, "refused": refused, "rules": rules})
    report("the readiness report embeds the failed pose's screenshot as a data: image",
           len(shots) == 1 and shots[0][0] == "data:image/png;base64," and shots[0][1] > 0
           and str(shots[0][1]) == shots[0][2] and not refused, {"images": shots, "refused": refused})


def check_accessibility(driver):
    found = {}
    for scheme in ("light", "dark"):
        bb.color_scheme(driver, scheme)
        for name, url in pages():
            open_page(driver, url)
            violations = bb.axe_violations(driver)
            if violations:
                found[scheme + " " + name] = violations
    bb.color_scheme(driver, "light")
    driver.set_window_size(390, 844)
    for name, url in pages():
        open_page(driver, url)
        violations = bb.axe_violations(driver)
        if violations:
            found["390px " + name] = violations
    sign_out(driver)
    open_page(driver, "/signin")
    violations = bb.axe_violations(driver)
    if violations:
        found["390px signin"] = violations
    driver.set_window_size(1280, 900)
    report("axe-core: no serious or critical violation on any page, light and dark and 390 px wide", not found,
           found)


def check_revocation(driver):
    tokens = SETTINGS["tokens"]
    sign_out(driver)
    bb.sign_in(driver, BASE, tokens["revokee"], "/projects/" + QUOTED)
    signed_in = path(driver) == "/projects/" + QUOTED
    code, _, err = cli("token", "revoke", tokens["revokee_name"])
    open_page(driver, "/projects/" + QUOTED + "/poses")
    report("revoking the token ends its session at once (next navigation: the sign-in page)",
           signed_in and code == 0 and path(driver) == "/signin",
           {"signed_in": signed_in, "revoke": [code, err], "now": driver.current_url})


def check_bulk_verdict(driver):
    sign_out(driver)
    bb.sign_in(driver, BASE, SETTINGS["tokens"]["writer"], "/")
    rule = SETTINGS["bulk_rule"]
    open_page(driver, "/projects/" + QUOTED + "/findings?rule=" + urllib.parse.quote(rule))
    numbers = [int(row.get_attribute("data-finding"))
               for row in driver.find_elements(By.CSS_SELECTOR, "table#findings tr[data-finding]")]
    form = driver.find_element(By.CSS_SELECTOR, "form#bulk")
    Select(form.find_element(By.CSS_SELECTOR, "select[name=new-status]")).select_by_value("declined")
    form.find_element(By.CSS_SELECTOR, "input[name=reason]").send_keys("not our bar")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    bb.wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#bulk-preview form#bulk-confirm"),
                  message="the preview")
    previewed = [int(row.get_attribute("data-finding"))
                 for row in driver.find_elements(By.CSS_SELECTOR, "#bulk-preview tr[data-finding]")]
    unchanged_meanwhile = all(finding_status(n) != "declined" for n in numbers)
    # Confirm posts the form and the daemon redirects back to the findings page, the path this page already has:
    # wait for this document to go first, or the statuses could be read before the POST was answered.
    before = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, "#bulk-preview form#bulk-confirm button[type=submit]").click()
    try:
        bb.wait_until(driver, staleness_of(before), message="the preview's page to be left after Confirm")
        bb.wait_until(driver, lambda d: path(d) == "/projects/" + QUOTED + "/findings"
                      and d.execute_script("return document.readyState") == "complete",
                      message="the findings page after Confirm")
    except Exception:
        raise RuntimeError("after Confirm: " + driver.current_url + " " + driver.find_element(By.TAG_NAME, "body").text[:500])
    after = {n: finding_status(n) for n in numbers}
    report("a writer's bulk verdict from the findings page, with its preview",
           numbers and sorted(previewed) == sorted(numbers) and unchanged_meanwhile
           and all(s == "declined" for s in after.values()),
           {"listed": numbers, "previewed": previewed, "preview_changed_nothing": unchanged_meanwhile,
            "after": after})
    # Without script the preview is a page of its own (the form's own POST), as the no-JS path.
    csrf = driver.find_element(By.CSS_SELECTOR, "meta[name=csrf-token]").get_attribute("content")
    body = urllib.parse.urlencode({"csrf": csrf, "where": "yes", "rule": rule, "new-status": "approved",
                                   "dry-run": "yes"})
    status, text = fetch(driver, "/projects/" + QUOTED + "/findings/status", method="POST", body=body)
    report("without script the preview is a page of its own", status == 200 and "<h1>Preview" in text
           and "bulk-confirm" in text, status)


def check_paging(driver):
    # A later page of the findings (after the first number): "First page" keeps the filter and drops after=, and the
    # bulk form names exactly the numbers the page lists, never the filter, so it cannot reach a finding not shown.
    open_page(driver, "/projects/" + QUOTED + "/findings?status=all")
    numbers = [int(row.get_attribute("data-finding"))
               for row in driver.find_elements(By.CSS_SELECTOR, "table#findings tr[data-finding]")]
    after = min(numbers)
    open_page(driver, "/projects/" + QUOTED + "/findings?status=all&after=%d" % after)
    shown = [int(row.get_attribute("data-finding"))
             for row in driver.find_elements(By.CSS_SELECTOR, "table#findings tr[data-finding]")]
    first = [a.get_attribute("href") for a in driver.find_elements(By.LINK_TEXT, "First page")]
    form = driver.find_element(By.CSS_SELECTOR, "form#bulk")
    named = [i.get_attribute("value") for i in form.find_elements(By.CSS_SELECTOR, "input[type=hidden][name=number]")]
    wheres = form.find_elements(By.CSS_SELECTOR, "input[name=where]")
    report("a later page of findings: a First page link keeping the filter, the bulk form naming only the rows shown",
           shown == sorted(n for n in numbers if n > after) and len(first) == 1
           and first[0].endswith("/findings?status=all") and named == [",".join(map(str, shown))] and not wheres,
           {"all": numbers, "shown": shown, "first": first, "named": named})


def check_step_form(driver):
    """A writer (signed in by check_bulk_verdict) sets a checklist step from the screen page's form."""
    shot = urllib.parse.quote(SETTINGS["shot_screen"], safe="")
    open_page(driver, "/projects/" + QUOTED + "/screens/" + shot)
    form = driver.find_element(By.CSS_SELECTOR, "form#step")
    Select(form.find_element(By.CSS_SELECTOR, "select[name=step]")).select_by_value("2")
    Select(form.find_element(By.CSS_SELECTOR, "select[name=state]")).select_by_value("not_applicable")
    form.find_element(By.CSS_SELECTOR, "input[name=note]").send_keys("no second bar on this screen")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    bb.wait_until(driver, lambda d: d.find_elements(
        By.CSS_SELECTOR, "table#steps tr[data-step='2'][data-state='not_applicable']"),
        message="step 2 to show not_applicable")
    code, out, _ = cli("--json", "screen", "show", PROJECT, SETTINGS["shot_screen"])
    rows = [row for row in (json.loads(out).get("steps") or []) if row.get("step") == 2] if code == 0 else []
    report("a writer sets a checklist step from the screen page's form",
           code == 0 and path(driver) == "/projects/" + QUOTED + "/screens/" + shot and rows
           and rows[0].get("state") == "not_applicable", {"rows": rows, "now": driver.current_url})


def check_live(driver):
    number = SETTINGS["hostile"]
    code, out, err = cli("--json", "finding", "show", PROJECT, str(number))
    if code != 0:
        raise RuntimeError("finding show failed: " + err)
    shown = json.loads(out)
    screen = (shown.get("finding") or shown).get("screen")
    open_page(driver, "/projects/" + QUOTED + "/screens/" + urllib.parse.quote(screen, safe=""))
    cell = "table#findings tr[data-finding='%d'] td.status" % number
    read = "var c = document.querySelector(arguments[0]); return c ? c.textContent : '';"
    before = driver.execute_script(read, cell)
    driver.execute_script("window.barkeepMarker = 'kept';")
    bb.wait_until(driver, lambda d: d.execute_script("return document.documentElement.dataset.liveState") == "open",
                  message="the page's event stream to open")
    code, _, err = cli("finding", "set", PROJECT, str(number), "approved")
    if code != 0:
        raise RuntimeError("finding set failed: " + err)
    started = time.monotonic()
    bb.wait_until(driver, lambda d: "approved" in d.execute_script(read, cell), seconds=5,
                  message="the status cell to show the CLI's change; console: " + repr(bb.script_errors(driver))
                  + " state: " + repr(driver.execute_script("return document.documentElement.dataset.liveState"))
                  + " cell: " + repr(driver.execute_script(read, cell)))
    elapsed = time.monotonic() - started
    marker = driver.execute_script("return window.barkeepMarker === undefined ? null : window.barkeepMarker")
    report("a finding set from the CLI shows on an open screen page within a second, without a reload",
           code == 0 and "approved" not in before and elapsed <= 1.0 and marker == "kept",
           {"before": before, "after": driver.execute_script(read, cell), "seconds": round(elapsed, 3),
            "marker": marker, "cli": err})


def write_screenshots(driver, directory):
    os.makedirs(directory, exist_ok=True)
    sign_out(driver)
    open_page(driver, "/signin")
    driver.save_screenshot(os.path.join(directory, "signin.png"))
    bb.sign_in(driver, BASE, SETTINGS["tokens"]["writer"], "/")
    for name, url in pages():
        open_page(driver, url)
        driver.save_screenshot(os.path.join(directory, name + ".png"))


def main():
    try:
        check_http()
    except Exception:
        report("check_http", False, traceback.format_exc())
    driver = bb.start()
    try:
        for check in (check_signin_and_overview, check_shared_link, check_hostile_snippet, check_finding_rows,
                      check_reader_write, check_screenshot, check_report, check_accessibility, check_revocation,
                      check_bulk_verdict, check_paging, check_step_form, check_live):
            try:
                check(driver)
            except Exception:  # one scenario failing must not hide the others' results
                report(check.__name__, False, traceback.format_exc())
        if SETTINGS.get("screenshots"):
            write_screenshots(driver, SETTINGS["screenshots"])
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
