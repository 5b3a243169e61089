#!/usr/bin/env bash
# A throw-away Prometheus for the tests and the demo, from Debian's prometheus package, started by hand (never the
# system service) on a spare loopback port with its own data folder. It scrapes, every 5 s, the simulated controller
# pods a fleet-sim lists in its targets file (`fleet-sim --prometheus-targets FILE`, Prometheus file_sd).
# Usage: scripts/prometheus.sh install|start|stop|url|version|targets
#   FLUX_FLEET_PROMETHEUS_PORT (default 59090), FLUX_FLEET_PROMETHEUS_DIR (default <state>/prometheus) and
#   FLUX_FLEET_PROMETHEUS_TARGETS (default <dir>/targets.json) run a second one beside the default one.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${FLUX_FLEET_PROMETHEUS_DIR:-${FLUX_FLEET_STATE:-$ROOT/.flux-fleet}/prometheus}
PORT=${FLUX_FLEET_PROMETHEUS_PORT:-59090}
TARGETS=${FLUX_FLEET_PROMETHEUS_TARGETS:-$DIR/targets.json}
URL="http://127.0.0.1:$PORT"
BIN=/usr/bin/prometheus

running() {
  [ -f "$DIR/prometheus.pid" ] && kill -0 "$(cat "$DIR/prometheus.pid")" 2>/dev/null
}

case "${1:-}" in
  install)
    if [ ! -x "$BIN" ]; then
      echo "==> installing Debian's prometheus" >&2
      apt-get install -y --no-install-recommends prometheus >/dev/null
      # The package may start its system service (port 9090): the tests never use it.
      systemctl stop prometheus >/dev/null 2>&1 || true
    fi
    ;;
  start)
    "$0" install
    mkdir -p "$DIR/data" "$(dirname "$TARGETS")"
    [ -f "$TARGETS" ] || echo '[]' > "$TARGETS"
    cat > "$DIR/prometheus.yml" <<YAML
global:
  scrape_interval: 5s
  scrape_timeout: 4s
  evaluation_interval: 5s
scrape_configs:
  - job_name: flux-controllers
    file_sd_configs:
      - files: ['$TARGETS']
        refresh_interval: 5s
YAML
    if ! running; then
      setsid "$BIN" --config.file="$DIR/prometheus.yml" --storage.tsdb.path="$DIR/data" \
        --storage.tsdb.retention.time=6h --web.listen-address="127.0.0.1:$PORT" \
        > "$DIR/prometheus.log" 2>&1 < /dev/null &
      echo $! > "$DIR/prometheus.pid"
    fi
    for _ in $(seq 1 120); do
      curl -sf -o /dev/null "$URL/-/ready" && { echo "$URL"; exit 0; }
      running || break
      sleep 0.5
    done
    echo "Prometheus did not become ready on $URL; its log ($DIR/prometheus.log):" >&2
    tail -20 "$DIR/prometheus.log" >&2
    exit 1
    ;;
  stop)
    if running; then
      pid=$(cat "$DIR/prometheus.pid")
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$DIR/prometheus.pid"
    ;;
  url)
    echo "$URL"
    ;;
  targets)
    echo "$TARGETS"
    ;;
  version)
    "$BIN" --version 2>&1 | head -1 | sed -E 's/^prometheus, version ([^ ]+).*/\1/'
    ;;
  *)
    echo "usage: $0 install|start|stop|url|version|targets" >&2
    exit 2
    ;;
esac
