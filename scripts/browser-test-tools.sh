#!/usr/bin/env bash
# Makes sure the browser tests have their browser: Debian's chromium and chromium-driver (the WebDriver server
# selenium talks to). Installs them from Debian's packages through scripts/install-deps.sh when either is missing,
# as scripts/bench.sh installs redis-server; prints the two paths, one per line. The Python side (selenium,
# axe-selenium-python) comes from scripts/python-test-tools.sh.
set -euo pipefail

find_browser() { command -v chromium || command -v chromium-browser || true; }
find_driver() { command -v chromedriver || { [ -x /usr/lib/chromium/chromedriver ] && echo /usr/lib/chromium/chromedriver; } || true; }

if [ -z "$(find_browser)" ] || [ -z "$(find_driver)" ]; then
    echo "Installing chromium and chromium-driver (the browser tests' browser)" >&2
    "$(dirname "$0")/install-deps.sh" chromium chromium-driver >&2
fi

browser=$(find_browser)
driver=$(find_driver)
if [ -z "$browser" ] || [ -z "$driver" ]; then
    echo "error: chromium or chromedriver still missing after the install" >&2
    exit 1
fi
echo "$browser"
echo "$driver"
