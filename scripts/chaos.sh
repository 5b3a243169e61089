#!/usr/bin/env bash
# `make chaos`: the fault suite an operator would run (issue 11) against the fleet simulator's fault API, with two
# replicas of the plugin on one PostgreSQL: replica freshness and spread leases, a 10 s outage, rounds of 410 Gone,
# a 90 % 429 storm, malformed objects, a replica that dies without releasing its leases, and a restart; then the
# real backend restarted on its SQLite files (scripts/restart-figures.mjs). Ends with a table of the figures
# measured. Starts its own PostgreSQL (scripts/postgres.sh; FLUX_FLEET_PG_PORT and FLUX_FLEET_PGDATA as there).
# Takes about 3-5 minutes (more when the app must be built first); not part of `make test`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FLUX_FLEET_ROOT"
scripts/bootstrap.sh || exit 1
OUT=$FLUX_FLEET_ROOT/.flux-fleet/chaos
mkdir -p "$OUT"
FIGURES=$OUT/figures.jsonl
: > "$FIGURES"
STARTED_PG=0
if [ -z "${BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING:-}${FLUX_FLEET_TEST_POSTGRES_ID:-}" ]; then
  PG_URL=$(scripts/postgres.sh start) || { echo "chaos: PostgreSQL did not start"; exit 1; }
  STARTED_PG=1
  PG_VERSION=$(scripts/postgres.sh version)
  export "BACKSTAGE_TEST_DATABASE_POSTGRES${PG_VERSION}_CONNECTION_STRING=$PG_URL"
  export FLUX_FLEET_TEST_POSTGRES_ID="POSTGRES_${PG_VERSION}"
fi
export FLUX_FLEET_REQUIRE_POSTGRES=1
cleanup() { [ "$STARTED_PG" = 1 ] && scripts/postgres.sh stop >/dev/null 2>&1; }
trap cleanup EXIT

s=$SECONDS
echo "==> chaos suite (log: $OUT/chaos.log)"
(cd plugins/flux-fleet-backend && CI=true FLUX_FLEET_CHAOS=1 FLUX_FLEET_CHAOS_FIGURES="$FIGURES" \
  yarn backstage-cli package test src/chaos/ > "$OUT/chaos.log" 2>&1)
rc=$?
grep -E '✓|✕|Tests:' "$OUT/chaos.log"
[ "$rc" != 0 ] && grep -A20 '●' "$OUT/chaos.log" | head -80

# The real backend restarted, as a user meets it: a stack of its own (fleet S, SQLite files, another port), its
# backend stopped and started again while the simulated fleet goes on (scripts/restart-figures.mjs).
echo "==> restart of the real backend (log: $OUT/restart.log)"
export FLUX_FLEET_STATE=$OUT/stack PORT=${FLUX_FLEET_CHAOS_PORT:-7117} BACKEND_WATCH=0 DB=sqlite
export FLUX_FLEET_API_TOKEN=chaos-$RANDOM$RANDOM$RANDOM
rm -rf "$FLUX_FLEET_STATE/sqlite"
stack_down() { scripts/stack.sh down >/dev/null 2>&1; }
trap 'stack_down; cleanup' EXIT
if scripts/stack.sh up > "$OUT/restart.log" 2>&1 && node scripts/restart-figures.mjs "$FIGURES" >> "$OUT/restart.log" 2>&1; then
  tail -1 "$OUT/restart.log"
else
  echo "!! the restart of the real backend failed; last lines of $OUT/restart.log:"
  tail -20 "$OUT/restart.log"
  rc=1
fi
stack_down
node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map(l => JSON.parse(l));
  const rows = [["scenario", "figure", "value", "source"], ...lines.map(f => [f.scenario, f.figure, f.value, f.source])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map(r => r[i].length)));
  for (const [n, r] of rows.entries()) {
    console.log(r.map((c, i) => c.padEnd(widths[i])).join("  "));
    if (n === 0) console.log(widths.map(x => "-".repeat(x)).join("  "));
  }' "$FIGURES"
echo "==> chaos suite done in $((SECONDS - s))s"
exit $rc
