#!/usr/bin/env bash
# Starts the local PostgreSQL and Redis when they are installed but down; fails with one clear line otherwise.
set -u

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! pg_up; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start >/dev/null 2>&1 || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  fi
  pg_up || { echo "make test: PostgreSQL is not reachable at 127.0.0.1:5432 and could not be started (install postgresql)." >&2; exit 1; }
fi

if ! redis_up; then
  if command -v redis-server >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null 2>&1 || true
    for _ in $(seq 1 30); do redis_up && break; sleep 1; done
  fi
  redis_up || { echo "make test: Redis is not reachable at 127.0.0.1:6379 and could not be started (install redis-server)." >&2; exit 1; }
fi
