#!/usr/bin/env bash
# `make bench [ARGS="--size S|M --with-l --quick"]`: Flux Fleet measured on the simulated fleet against baselines
# taken in the same run (JSON.parse of the same lists, the catalog's own lookup, the Kubernetes plugin on the same
# backend and clusters). Writes bench/results/latest.json and the README's Benchmarks section. See bench/README.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FLUX_FLEET_ROOT"
export FLUX_FLEET_ROOT
exec yarn workspace @flux-fleet/bench bench "$@"
