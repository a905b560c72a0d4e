#!/usr/bin/env bash
# Installs what Barkeep needs from the system and is missing: PostgreSQL's server programs (initdb, pg_ctl,
# postgres), libpq's headers, OpenSSL's headers (TLS), the openssl command (the TLS tests make their certificates
# with it), pkg-config, curl (the CI document's test), and python3 with its venv module (the export tests check CSV and SARIF with Python packages
# that scripts/python-test-tools.sh installs from PyPI), and any package named as an argument. Does nothing when
# everything is there.
set -euo pipefail

missing=()
have_server() {
    local bindir
    if command -v pg_config >/dev/null 2>&1; then
        bindir=$(pg_config --bindir)
        [ -x "$bindir/initdb" ] && [ -x "$bindir/pg_ctl" ] && [ -x "$bindir/postgres" ] && return 0
    fi
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && return 0
    command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1
}
have_libpq_headers() {
    command -v pg_config >/dev/null 2>&1 && [ -f "$(pg_config --includedir)/libpq-fe.h" ]
}
have_openssl_headers() {
    # Through pkg-config, as the build finds it (without pkg-config, apt-get also installs what is already there).
    command -v pkg-config >/dev/null 2>&1 && pkg-config --exists openssl &&
        [ -f "$(pkg-config --variable=includedir openssl)/openssl/ssl.h" ]
}

# Extra packages a caller needs (scripts/browser-test-tools.sh: chromium chromium-driver), installed with the rest.
missing+=("$@")
have_server || missing+=(postgresql)
have_libpq_headers || missing+=(libpq-dev)
have_openssl_headers || missing+=(libssl-dev)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
# docs/ci.md's jobs post their comment with curl; CIDocumentTests runs them as written.
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
# Debian's python3 makes a virtual environment only with python3-venv (ensurepip).
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)

if ! command -v swift >/dev/null 2>&1; then
    echo "error: no Swift toolchain on PATH; Barkeep needs Swift 6 (swift --version)" >&2
    exit 1
fi

[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing system packages: ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: no apt-get here; install these packages by hand: ${missing[*]}" >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
        echo "error: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
