#!/usr/bin/env bash
# `make test`: installs what is missing, then runs every suite and ends with one line `N passed, N failed`
# summing them all. Suites: type-check, lint, unit and component tests of every package (jest; backend suites run
# against SQLite and PostgreSQL), the app build, and the Playwright end-to-end suite in Chromium against the
# running product (simulated fleet + backend on PostgreSQL + built app).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FLUX_FLEET_ROOT"
OUT=$FLUX_FLEET_ROOT/.flux-fleet/test
rm -rf "$OUT" && mkdir -p "$OUT"
SUMMARY=$OUT/summary.tsv
: > "$SUMMARY"
T0=$SECONDS
# the port of the product the end-to-end suite runs against
E2E_PORT=${FLUX_FLEET_E2E_PORT:-7017}

record() { # suite passed failed seconds
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$SUMMARY"
  printf '   %-28s %5s passed %5s failed  (%ss)\n' "$1" "$2" "$3" "$4"
}

step() { # suite, command...: a suite that counts as one test
  local name=$1; shift
  local s=$SECONDS
  echo "==> $name"
  if "$@" > "$OUT/$name.log" 2>&1; then
    record "$name" 1 0 $((SECONDS - s))
  else
    tail -40 "$OUT/$name.log"
    record "$name" 0 1 $((SECONDS - s))
  fi
}

cleanup() {
  scripts/stack.sh down >/dev/null 2>&1
  scripts/postgres.sh stop >/dev/null 2>&1
  scripts/prometheus.sh stop >/dev/null 2>&1
}
trap cleanup EXIT

echo "==> installing what is missing"
s=$SECONDS
scripts/bootstrap.sh || { echo "0 passed, 1 failed"; exit 1; }
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/prometheus ] || missing+=(prometheus)
if [ ${#missing[@]} -gt 0 ]; then
  echo "    apt-get install ${missing[*]}"
  if ! apt-get install -y --no-install-recommends "${missing[@]}" > "$OUT/apt.log" 2>&1; then
    apt-get update > /dev/null 2>&1
    apt-get install -y --no-install-recommends "${missing[@]}" > "$OUT/apt.log" 2>&1 || { tail -20 "$OUT/apt.log"; echo "0 passed, 1 failed"; exit 1; }
  fi
fi
echo "    install: $((SECONDS - s))s"

PG_URL=$(scripts/postgres.sh start) || { echo "0 passed, 1 failed"; exit 1; }
PG_VERSION=$(scripts/postgres.sh version)
export "BACKSTAGE_TEST_DATABASE_POSTGRES${PG_VERSION}_CONNECTION_STRING=$PG_URL"
export FLUX_FLEET_TEST_POSTGRES_ID="POSTGRES_${PG_VERSION}"
export FLUX_FLEET_REQUIRE_POSTGRES=1
# a Prometheus scraping the targets file a test's simulator writes (FLUX_FLEET_TEST_PROMETHEUS_TARGETS)
PROMETHEUS_URL=$(scripts/prometheus.sh start) || { echo "0 passed, 1 failed"; exit 1; }
export FLUX_FLEET_TEST_PROMETHEUS_URL=$PROMETHEUS_URL
FLUX_FLEET_TEST_PROMETHEUS_TARGETS=$(scripts/prometheus.sh targets)
export FLUX_FLEET_TEST_PROMETHEUS_TARGETS
export FLUX_FLEET_REQUIRE_PROMETHEUS=1

step typecheck yarn tsc
# lint: ESLint of every package, then no import cycle in the backend (madge)
step lint bash -c "yarn lint:all && yarn lint:cycles"

echo "==> unit and component tests (jest; database tests on SQLite and PostgreSQL $PG_VERSION)"
s=$SECONDS
CI=true yarn test --json --outputFile="$OUT/jest.json" > "$OUT/jest.log" 2>&1
jest_rc=$?
read -r jp jf < <(node -e '
  try { const r = require(process.argv[1]); console.log(r.numPassedTests, r.numFailedTests + r.numRuntimeErrorTestSuites); }
  catch { console.log(0, 1); }' "$OUT/jest.json")
if [ "$jest_rc" != 0 ] && [ "$jf" = 0 ]; then jf=1; fi
# on failure, each failing suite and test with the first lines of its message (the full log is $OUT/jest.log)
[ "$jf" != 0 ] && node -e '
  let r; try { r = require(process.argv[1]); } catch { process.exit(); }
  for (const s of r.testResults) {
    if (s.status !== "failed") continue;
    console.log(`FAIL ${s.name}`);
    const failed = s.assertionResults.filter(a => a.status === "failed");
    if (failed.length === 0) console.log(String(s.message).split("\n").slice(0, 12).join("\n"));
    for (const a of failed) {
      console.log(`  ✕ ${a.fullName}`);
      console.log(a.failureMessages.join("\n").split("\n").slice(0, 12).map(l => `      ${l}`).join("\n"));
    }
  }' "$OUT/jest.json" | head -150
record unit "$jp" "$jf" $((SECONDS - s))

step build-app yarn workspace app build

echo "==> end-to-end tests (Playwright in Chromium against the running product)"
s=$SECONDS
# --tls: kubectl sends the admin context's token only over HTTPS (the tests change the fleet with kubectl);
# app-config.e2e.yaml indexes the catalog for search every 10 s; no backend restart when a source file changes.
# a static API token as a script's operator would configure one (app-config.yaml restricts it to reading)
export FLUX_FLEET_API_TOKEN=${FLUX_FLEET_API_TOKEN:-e2e-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}
if PROMETHEUS=1 DB=pg PORT=$E2E_PORT EXTRA_CONFIG="$FLUX_FLEET_ROOT/e2e-tests/app-config.e2e.yaml" BACKEND_WATCH=0 \
  scripts/stack.sh up > "$OUT/stack.log" 2>&1; then
  (cd e2e-tests && PLAYWRIGHT_BASE_URL=http://localhost:$E2E_PORT FLUX_FLEET_STATE="$FLUX_FLEET_ROOT/.flux-fleet" \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$OUT/e2e.json" yarn playwright test --reporter=list,json > "$OUT/e2e.log" 2>&1)
  e2e_rc=$?
  read -r ep ef < <(node -e '
    let r;
    try { r = require(process.argv[1]); } catch { console.log(0, 1); process.exit(); }
    console.log(r.stats.expected, r.stats.unexpected + (r.errors || []).length);' "$OUT/e2e.json" 2>/dev/null || echo "0 1")
  if [ "$e2e_rc" != 0 ] && [ "$ef" = 0 ]; then ef=1; fi
  [ "$ef" != 0 ] && { tail -60 "$OUT/e2e.log"; tail -30 .flux-fleet/backend.log; }
  record e2e "$ep" "$ef" $((SECONDS - s))
else
  cat "$OUT/stack.log"
  record e2e 0 1 $((SECONDS - s))
fi
scripts/stack.sh down > /dev/null 2>&1

echo "==> done in $((SECONDS - T0))s"
total=$(awk -F'\t' '{p+=$2; f+=$3} END {printf "%d passed, %d failed", p, f}' "$SUMMARY")
echo "$total"
case "$total" in *", 0 failed") exit 0 ;; *) exit 1 ;; esac
