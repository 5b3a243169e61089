# Flux Fleet: the two commands a new machine needs, plus the simulator and the benchmarks.
# Every target installs what it needs by itself (Node 24 and Yarn 4 into .tools/, packages, Debian packages).
SHELL := /bin/bash
FLEET ?= S
ARGS ?=

.PHONY: start test sim bench install stop dev chaos

## make start [FLEET=S|M|L]: the simulated fleet, the backend and the app; open http://localhost:7007
start:
	@scripts/bootstrap.sh
	@FLEET=$(FLEET) BACKEND_WATCH=0 scripts/stack.sh up
	@echo "    kubeconfig and ground truth of the demo fleet: $${FLUX_FLEET_STATE:-.flux-fleet}/kubeconfig, $${FLUX_FLEET_STATE:-.flux-fleet}/truth.json"
	@echo "    press Ctrl-C to stop"
	@trap 'scripts/stack.sh down; exit 0' INT TERM; tail -n 0 -f "$${FLUX_FLEET_STATE:-.flux-fleet}/backend.log"

## make test: every suite; ends with `N passed, N failed`
test:
	@scripts/test.sh

## make chaos: the fault suite against the simulator with two replicas on PostgreSQL; prints a table of figures (3-5 min)
chaos:
	@scripts/chaos.sh

## make sim ARGS="--size S --seed 7 --port 0 --kubeconfig FILE --truth FILE": the fleet simulator in the foreground
sim:
	@scripts/bootstrap.sh
	@source scripts/env.sh && packages/fleet-sim/bin/fleet-sim $(ARGS)

## make bench [ARGS="--size M"]: benchmarks with a baseline measured in the same run
bench:
	@scripts/bootstrap.sh
	@scripts/bench.sh $(ARGS)

## make dev: app dev server on :3000 with hot reload and the backend on :7007 (needs `make start` once for the fleet)
dev:
	@scripts/bootstrap.sh
	@source scripts/env.sh && yarn start

install:
	@scripts/bootstrap.sh

stop:
	@scripts/stack.sh down
