#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster from Debian's packages on 127.0.0.1 as the unprivileged
# postgres user and prints the URL the tests read from REVIEWCAST_TEST_PG_URL.
set -euo pipefail
port="${1:-55432}"
dir="${2:-/tmp/reviewcast-pg}"
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
rm -rf "$dir" && mkdir -p "$dir" && chown postgres "$dir"
run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
run "$bindir/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
run "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=300" start >/dev/null
echo "postgres://postgres@127.0.0.1:$port/postgres"
