/// `app.js`: the dashboard's only script, hand-written, no framework, loaded with `defer`. Table sort (header
/// buttons, `aria-sort`), table filter (`data-*` of rows), local times (`Intl.DateTimeFormat`), the bulk verdict's
/// preview (a dry run, then Confirm), and live updates (an `EventSource` on `main[data-live]`, coalesced over
/// 150 ms, refetching `<main>` with `X-Barkeep-Part: main`). Every page works without it but sorting, live and
/// local times.
enum AppScript {
    /// The script's text.
    static let text = #"""
        "use strict";
        (function () {
          var COALESCE_MS = 150;
          var sortState = {};

          function localTimes(root) {
            var format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
            root.querySelectorAll("time[datetime]").forEach(function (node) {
              var date = new Date(node.getAttribute("datetime"));
              if (!isNaN(date.getTime())) {
                node.title = node.textContent;
                node.textContent = format.format(date);
              }
            });
          }

          function cellValue(row, index) {
            var cell = row.cells[index];
            if (!cell) { return ""; }
            var value = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent.trim();
            var number = Number(value);
            return value !== "" && !isNaN(number) ? number : value.toLowerCase();
          }

          function sortTable(table, index, direction) {
            var body = table.tBodies[0];
            if (!body) { return; }
            var rows = Array.prototype.slice.call(body.rows);
            rows.sort(function (a, b) {
              var x = cellValue(a, index), y = cellValue(b, index);
              var order = x < y ? -1 : x > y ? 1 : 0;
              return direction === "descending" ? -order : order;
            });
            rows.forEach(function (row) { body.appendChild(row); });
            Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
              if (th.querySelector("button")) {
                th.setAttribute("aria-sort", i === index ? direction : "none");
              }
            });
          }

          function setUpSorting(root) {
            root.querySelectorAll("table.sortable").forEach(function (table) {
              if (!table.tHead) { return; }
              Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
                var button = th.querySelector("button");
                if (!button) { return; }
                button.addEventListener("click", function () {
                  var next = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
                  sortTable(table, index, next);
                  sortState[table.id] = { index: index, direction: next };
                  var url = new URL(window.location.href);
                  url.searchParams.set("sort", th.getAttribute("data-key") || String(index));
                  url.searchParams.set("order", next);
                  history.replaceState(null, "", url.pathname + url.search);
                });
              });
              var state = sortState[table.id];
              if (state) { sortTable(table, state.index, state.direction); }
            });
          }

          function applyFilter(form) {
            var table = document.getElementById(form.getAttribute("data-table"));
            if (!table || !table.tBodies[0]) { return; }
            var fields = form.querySelectorAll("[data-key]");
            var shown = 0;
            Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
              var visible = true;
              fields.forEach(function (field) {
                var wanted = field.value.trim().toLowerCase();
                if (wanted === "") { return; }
                var key = field.getAttribute("data-key");
                var have = key === "text" ? row.textContent.toLowerCase() : (row.getAttribute("data-" + key) || "");
                var match = key === "text" ? have.indexOf(wanted) >= 0
                  : have.toLowerCase() === wanted || have.split(" ").indexOf(wanted) >= 0;
                if (!match) { visible = false; }
              });
              row.hidden = !visible;
              if (visible) { shown += 1; }
            });
            var count = form.querySelector("output");
            if (count) { count.textContent = shown + " shown"; }
          }

          function setUpFilters(root) {
            root.querySelectorAll("form.filters[data-table]").forEach(function (form) {
              form.addEventListener("input", function () { applyFilter(form); });
              form.addEventListener("change", function () { applyFilter(form); });
              applyFilter(form);
            });
          }

          function csrfToken() {
            var meta = document.querySelector("meta[name=csrf-token]");
            return meta ? meta.getAttribute("content") : "";
          }

          function replaceChildrenFrom(target, html) {
            var parsed = new DOMParser().parseFromString(html, "text/html");
            target.replaceChildren.apply(target, Array.prototype.slice.call(parsed.body.childNodes));
          }

          function setUpBulk(root) {
            var form = root.querySelector("form#bulk");
            var preview = root.querySelector("#bulk-preview");
            if (!form || !preview) { return; }
            form.addEventListener("submit", function (event) {
              event.preventDefault();
              var body = new URLSearchParams(new FormData(form));
              body.set("dry-run", "yes");
              preview.textContent = "Previewing…";
              fetch(form.action, {
                method: "POST", credentials: "same-origin", body: body,
                headers: { "X-Barkeep-Part": "preview", "X-CSRF-Token": csrfToken() }
              }).then(function (response) {
                return response.text().then(function (text) { return { ok: response.ok, text: text }; });
              }).then(function (result) {
                replaceChildrenFrom(preview, result.text);
                var confirm = preview.querySelector("button[type=submit]");
                if (confirm) { confirm.focus(); }
              }).catch(function () {
                preview.textContent = "The preview failed; submit again to retry.";
              });
            });
          }

          function setUp(root) {
            localTimes(root);
            setUpSorting(root);
            setUpFilters(root);
            setUpBulk(root);
          }

          function announce(text) {
            var live = document.getElementById("live");
            if (live) { live.textContent = text; }
          }

          function pad(number) { return number < 10 ? "0" + number : String(number); }

          function refetchMain() {
            fetch(window.location.href, {
              credentials: "same-origin", headers: { "X-Barkeep-Part": "main" }
            }).then(function (response) {
              if (response.redirected || !response.ok) { window.location.reload(); return null; }
              return response.text();
            }).then(function (html) {
              if (html === null) { return; }
              var parsed = new DOMParser().parseFromString(html, "text/html");
              var fresh = parsed.querySelector("main");
              var current = document.querySelector("main");
              if (!fresh || !current) { return; }
              var focusedID = document.activeElement ? document.activeElement.id : "";
              var filters = {};
              // Every field a person may have set (a filter, the bulk verdict, a step form) keeps its value.
              current.querySelectorAll("form input[id], form select[id], form textarea[id]").forEach(function (field) {
                if (field.type !== "hidden") { filters[field.id] = field.value; }
              });
              var x = window.scrollX, y = window.scrollY;
              var adopted = document.importNode(fresh, true);
              current.replaceWith(adopted);
              Object.keys(filters).forEach(function (id) {
                var field = document.getElementById(id);
                if (field) { field.value = filters[id]; }
              });
              setUp(adopted);
              if (focusedID) {
                var again = document.getElementById(focusedID);
                if (again) { again.focus({ preventScroll: true }); }
              }
              window.scrollTo(x, y);
              var now = new Date();
              announce("Updated " + pad(now.getHours()) + ":" + pad(now.getMinutes()) + ":" + pad(now.getSeconds()));
            }).catch(function () { announce("Live update failed; it will retry on the next change."); });
          }

          var source = null, lastID = "", timer = null;

          function onEvent(event) {
            if (event.lastEventId) { lastID = event.lastEventId; }
            if (timer !== null) { return; }
            timer = window.setTimeout(function () { timer = null; refetchMain(); }, COALESCE_MS);
          }

          function openStream() {
            var main = document.querySelector("main[data-live]");
            if (!main || source !== null) { return; }
            var url = main.getAttribute("data-live");
            if (lastID !== "") { url += (url.indexOf("?") >= 0 ? "&" : "?") + "since=" + encodeURIComponent(lastID); }
            source = new EventSource(url, { withCredentials: true });
            source.onopen = function () { document.documentElement.setAttribute("data-live-state", "open"); };
            source.onerror = function () { document.documentElement.setAttribute("data-live-state", "retrying"); };
            source.onmessage = onEvent;
            (main.getAttribute("data-events") || "").split(" ").forEach(function (kind) {
              if (kind !== "") { source.addEventListener(kind, onEvent); }
            });
          }

          function closeStream() {
            if (source !== null) { source.close(); source = null; }
          }

          document.addEventListener("visibilitychange", function () {
            if (document.hidden) { closeStream(); } else { openStream(); }
          });

          setUp(document);
          if (!document.hidden) { openStream(); }
        })();
        """#
}
