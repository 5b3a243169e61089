#!/usr/bin/env bash
# Runs the whole product: the fleet simulator (a Kubernetes API server per simulated cluster), the Backstage
# backend with the Flux Fleet plugins, and the built app served by the backend on one port.
#   scripts/stack.sh up   [FLEET=S|M|L] [DB=sqlite|pg] [PORT=7007]   start in the background, wait until ready
#   scripts/stack.sh down                                              stop what `up` started
#   scripts/stack.sh backend                                           restart the backend alone, as `up` started it
# BACKEND_WATCH=0 runs the backend without `yarn start`'s watcher (no restart when a source file changes).
# State lives in .flux-fleet/ (git-ignored): kubeconfig, truth.json, catalog.yaml, the controller pods' Prometheus
# targets, generated app-config, logs, pids, and with DB=sqlite the database files (sqlite/), kept across restarts
# so the backend serves its last snapshot at once. PROMETHEUS=1 also starts a Prometheus scraping the simulated
# controllers (scripts/prometheus.sh, port FLUX_FLEET_STACK_PROMETHEUS_PORT, default 59091) and configures the
# plugin with it.
# FLUX_FLEET_STATE=<dir> puts it elsewhere, so a second stack (another PORT, FLUX_FLEET_PG_PORT and
# FLUX_FLEET_PGDATA) can run beside the default one; `down` then needs the same FLUX_FLEET_STATE.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FLUX_FLEET_ROOT"
STATE=${FLUX_FLEET_STATE:-$FLUX_FLEET_ROOT/.flux-fleet}
FLEET=${FLEET:-S}
DB=${DB:-sqlite}
PORT=${PORT:-7007}
SEED=${SEED:-7}

start_group() { # name, command... : runs in its own process group so `down` stops its children too
  local name=$1; shift
  setsid bash -c 'echo $$ > "$0"; exec "$@"' "$STATE/$name.pid" "$@" > "$STATE/$name.log" 2>&1 < /dev/null &
}

wait_for() { # what, seconds, command...
  local what=$1 limit=$2; shift 2
  local start=$SECONDS
  until "$@" >/dev/null 2>&1; do
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      echo "!! $what not ready after ${limit}s; last lines of its log:" >&2
      return 1
    fi
    sleep 1
  done
}

# The guest's Backstage token, as the app gets it after "Enter".
guest_token() {
  curl -sf -H 'X-Requested-With: XMLHttpRequest' "http://127.0.0.1:$PORT/api/auth/guest/refresh" \
    | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).backstageIdentity.token)' 2>/dev/null
}

product_ready() {
  local token
  token=$(guest_token) || return 1
  curl -sf -o /dev/null -H "Authorization: Bearer $token" \
    "http://127.0.0.1:$PORT/api/catalog/entities/by-name/component/default/checkout" || return 1
  curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT/api/flux-fleet/clusters" \
    | node -e 'const c = JSON.parse(require("fs").readFileSync(0, "utf8")).items;
      process.exit(c.length > 0 && c.every(x => x.synced) ? 0 : 1)'
}

# Starts the backend with the configs `up` wrote, and waits until it is ready: `up`, and `backend` (a restart of
# the backend alone, the simulated fleet going on: how a restarted demo serves its last snapshot is measured so).
start_backend() {
  local configs=()
  mapfile -t configs < "$STATE/backend.configs"
  echo "==> starting the backend on 127.0.0.1:$PORT (database: $DB)"
  if [ "${BACKEND_WATCH:-1}" = 0 ]; then
    # What `yarn start` runs, without its file watcher: a test run must not restart the backend when someone
    # saves a source file in the checkout.
    # V8 flags as the Flux Fleet backend README recommends (a young generation of 32 MiB, old generation growth by half,
    # memory outside the heap counted in the heap's limit)
    start_group backend bash -c "cd packages/backend && NODE_ENV=development exec node --enable-source-maps \
      --max-semi-space-size=16 --external-memory-accounted-in-global-limit --require \"\$(node -p \"require.resolve('@backstage/cli-node/config/nodeTransform.cjs')\")\" src/index.ts ${configs[*]}"
  else
    start_group backend bash -c "cd packages/backend && exec yarn start ${configs[*]}"
  fi
  wait_for "backend" 240 curl -sf -o /dev/null "http://127.0.0.1:$PORT/.backstage/health/v1/readiness" \
    || { tail -30 "$STATE/backend.log"; exit 1; }
  # usable = the catalog has read its locations and every cluster of the fleet is synced
  wait_for "catalog and fleet index" 300 product_ready \
    || echo "!! the catalog or the fleet index is not ready yet; the product is up but may show partial data" >&2
}

up() {
  mkdir -p "$STATE"
  down >/dev/null 2>&1 || true

  if [ ! -f packages/app/dist/index.html ] || [ -n "$(find packages/app/src plugins/flux-fleet/src plugins/flux-fleet-common/src -newer packages/app/dist/index.html -type f 2>/dev/null | head -1)" ]; then
    echo "==> building the app"
    yarn workspace app build > "$STATE/app-build.log" 2>&1 || { tail -30 "$STATE/app-build.log"; exit 1; }
  fi

  local configs=(--config "$FLUX_FLEET_ROOT/app-config.yaml")
  if [ -x packages/fleet-sim/bin/fleet-sim ]; then
    echo "==> starting the simulated fleet $FLEET (seed $SEED)"
    rm -f "$STATE/kubeconfig" "$STATE/truth.json" "$STATE/catalog.yaml"
    : > "$STATE/sim.log" # so the wait below never reads the "ready" of the previous run
    # a catalog Component per simulated service (owned by its team's Group), except those examples/ defines by hand
    local defined
    defined=$(awk '/^kind:/ { kind = $2 } /^  name:/ && (kind == "Component" || kind == "Group") { print $2 }' \
      examples/entities.yaml examples/org.yaml | paste -sd, -)
    start_group sim packages/fleet-sim/bin/fleet-sim --size "$FLEET" --seed "$SEED" --port 0 \
      --tls --kubeconfig "$STATE/kubeconfig" --truth "$STATE/truth.json" \
      --prometheus-targets "$STATE/prometheus-targets.json" --catalog "$STATE/catalog.yaml" --catalog-skip "$defined" ${SIM_ARGS:-}
    wait_for "fleet simulator" 900 grep -q 'fleet-sim ready' "$STATE/sim.log" || { tail -20 "$STATE/sim.log"; exit 1; }
    node scripts/fleet-config.mjs "$STATE/kubeconfig" "$STATE/catalog.yaml" > "$STATE/app-config.fleet.yaml"
    configs+=(--config "$STATE/app-config.fleet.yaml")
    if [ "${PROMETHEUS:-0}" = 1 ]; then
      # a Prometheus of this stack's own, scraping the simulated controller pods every 5 s
      local prometheus
      prometheus=$(FLUX_FLEET_PROMETHEUS_DIR="$STATE/prometheus-stack" \
        FLUX_FLEET_PROMETHEUS_PORT="${FLUX_FLEET_STACK_PROMETHEUS_PORT:-59091}" \
        FLUX_FLEET_PROMETHEUS_TARGETS="$STATE/prometheus-targets.json" scripts/prometheus.sh start) || exit 1
      cat > "$STATE/app-config.prometheus.yaml" <<YAML
fluxFleet:
  capacity:
    prometheus:
      url: $prometheus
      clusterLabel: cluster
YAML
      configs+=(--config "$STATE/app-config.prometheus.yaml")
    fi
  fi

  # the backend serves the built app on the same port
  cat > "$STATE/app-config.stack.yaml" <<YAML
app:
  baseUrl: http://localhost:$PORT
backend:
  baseUrl: http://localhost:$PORT
  listen:
    port: $PORT
    host: 127.0.0.1
  cors:
    origin: http://localhost:$PORT
YAML
  if [ "$DB" = sqlite ]; then
    # SQLite files in the state folder (one per plugin), so a restarted demo serves its last snapshot at once
    mkdir -p "$STATE/sqlite"
    cat >> "$STATE/app-config.stack.yaml" <<YAML
  database:
    client: better-sqlite3
    connection:
      directory: $STATE/sqlite
YAML
  elif [ "$DB" = pg ]; then
    local url
    url=$(scripts/postgres.sh start)
    cat >> "$STATE/app-config.stack.yaml" <<YAML
  database:
    client: pg
    connection: $url/postgres
    pluginDivisionMode: database
    prefix: 'flux_fleet_stack_'
YAML
  fi
  configs+=(--config "$STATE/app-config.stack.yaml")
  [ -n "${EXTRA_CONFIG:-}" ] && configs+=(--config "$EXTRA_CONFIG")

  printf '%s\n' "${configs[@]}" > "$STATE/backend.configs"
  start_backend
  echo "==> Flux Fleet is running: open http://localhost:$PORT (logs in $STATE/*.log)"
}

down() {
  stop_group backend
  stop_group sim
  FLUX_FLEET_PROMETHEUS_DIR="$STATE/prometheus-stack" scripts/prometheus.sh stop
}

stop_group() { # name: what start_group started, its children too (TERM, then KILL after 10 s)
  local name=$1 pid
  [ -f "$STATE/$name.pid" ] || return 0
  pid=$(cat "$STATE/$name.pid")
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$STATE/$name.pid"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  backend) [ -f "$STATE/backend.configs" ] || { echo "stack: no backend.configs in $STATE: run up first" >&2; exit 1; }
    stop_group backend; start_backend ;;
  *) echo "usage: $0 up|down|backend" >&2; exit 2 ;;
esac
