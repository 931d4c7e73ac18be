#!/usr/bin/env bash
# The accessibility audit injects axe-core (npm, pinned in package-lock.json) into the pages
# the browser tests open; install node from Debian when absent, then the locked packages.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f node_modules/axe-core/axe.min.js ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then exit 0; fi
if ! command -v npm >/dev/null; then
  echo "npm: installing Debian's package"
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq npm >/dev/null
fi
npm ci --no-audit --no-fund --loglevel=error
