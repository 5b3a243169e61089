#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests, from Debian's postgresql package, in the git-ignored .pgdata
# folder on a spare port. It never touches the system's own cluster. Usage: scripts/postgres.sh start|stop|url
# FLUX_FLEET_PGDATA and FLUX_FLEET_PG_PORT run a second cluster beside the default one (both must differ).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${FLUX_FLEET_PGDATA:-$ROOT/.pgdata}
PORT=${FLUX_FLEET_PG_PORT:-54329}
URL="postgresql://postgres@127.0.0.1:$PORT"

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] || { echo "PostgreSQL server binaries not found under /usr/lib/postgresql" >&2; exit 1; }
  echo "$dir"
}

# PostgreSQL refuses to run as root: run it as the postgres user the Debian package creates
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  install)
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
      echo "==> installing Debian's postgresql"
      apt-get install -y postgresql >/dev/null
    fi
    ;;
  start)
    "$0" install
    bin=$(pg_bin)
    if [ ! -f "$DATA/PG_VERSION" ]; then
      mkdir -p "$DATA"
      [ "$(id -u)" = 0 ] && chown postgres "$DATA"
      as_pg "$bin/initdb" -D "$DATA" -U postgres -A trust >/dev/null
    fi
    if ! as_pg "$bin/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
      as_pg "$bin/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w \
        -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
    fi
    echo "$URL"
    ;;
  stop)
    bin=$(pg_bin)
    [ -f "$DATA/PG_VERSION" ] && as_pg "$bin/pg_ctl" -D "$DATA" -m fast stop >/dev/null 2>&1 || true
    ;;
  url)
    echo "$URL"
    ;;
  version)
    "$(pg_bin)/postgres" --version | sed -E 's/.* ([0-9]+)\..*/\1/'
    ;;
  *)
    echo "usage: $0 install|start|stop|url|version" >&2
    exit 2
    ;;
esac
