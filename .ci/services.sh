#!/usr/bin/env bash
# Start the local PostgreSQL and Redis the test suite needs, when installed but stopped.
set -uo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else "$@"; fi; }

if command -v pg_isready >/dev/null && ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  echo "services: starting PostgreSQL"
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    for version in $(ls /etc/postgresql); do
      as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    done
  fi
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
if command -v pg_isready >/dev/null && ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  echo "services: PostgreSQL does not answer on 127.0.0.1:5432" >&2; exit 1
fi

if command -v redis-cli >/dev/null && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "services: starting Redis"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log \
    || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "services: Redis does not answer on 127.0.0.1:6379" >&2; exit 1
fi
echo "services: PostgreSQL and Redis answer"
