#!/usr/bin/env bash
# Makes sure the browser tests have their browser: Debian's chromium and chromium-driver (the WebDriver server
# selenium talks to). Installs them from Debian's packages when either is missing (as root, or through sudo), as
# scripts/bench.sh installs redis-server; prints the two paths, one per line. The Python side (selenium,
# axe-selenium-python) comes from scripts/python-test-tools.sh.
set -euo pipefail

find_browser() { command -v chromium || command -v chromium-browser || true; }
find_driver() { command -v chromedriver || { [ -x /usr/lib/chromium/chromedriver ] && echo /usr/lib/chromium/chromedriver; } || true; }

if [ -z "$(find_browser)" ] || [ -z "$(find_driver)" ]; then
    echo "Installing chromium and chromium-driver (the browser tests' browser)" >&2
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: no apt-get here; install chromium and chromium-driver by hand" >&2
        exit 1
    fi
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
            echo "error: need root (or sudo) to install chromium and chromium-driver" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get install -y -q --no-install-recommends chromium chromium-driver >&2 \
        || { "${sudo[@]}" apt-get update -q >&2 &&
            "${sudo[@]}" apt-get install -y -q --no-install-recommends chromium chromium-driver >&2; }
fi

browser=$(find_browser)
driver=$(find_driver)
if [ -z "$browser" ] || [ -z "$driver" ]; then
    echo "error: chromium or chromedriver still missing after the install" >&2
    exit 1
fi
echo "$browser"
echo "$driver"
