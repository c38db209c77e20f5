#!/bin/sh
# Starts a throwaway PostgreSQL on 127.0.0.1:$PGPORT (trust auth, user postgres) and prints its folder.
# Stop it with: scripts/pg-throwaway.sh stop <folder>
set -eu
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$PGBIN" ]; then
  echo "PostgreSQL is not installed: apt-get install -y postgresql (or let .ci/run do it)" >&2
  exit 3
fi
if [ "${1:-}" = "stop" ]; then
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$2/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$2"
  exit 0
fi
PGPORT=${PGPORT:-55432}
PGTMP=$(mktemp -d /tmp/svc-pg.XXXXXX)
chown postgres:postgres "$PGTMP"
runuser -u postgres -- "$PGBIN/initdb" -D "$PGTMP/data" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGTMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
  start >/dev/null
echo "$PGTMP"
