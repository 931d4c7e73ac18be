#!/usr/bin/env bash
# The browser tests drive Debian's chromium; install it when absent (never a downloaded build).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "chromium: installing Debian's package"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -qq
as_root apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
