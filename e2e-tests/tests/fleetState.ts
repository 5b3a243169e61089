import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the running stack keeps its files (`scripts/stack.sh up`): the simulator's kubeconfig, its log (with the
 * admin API's URL) and truth.json. `FLUX_FLEET_STATE` names the folder; the default is the repository's
 * `.flux-fleet`, as `make start` and `make test` use.
 */
export function stateDir(): string {
  return resolve(
    process.env.FLUX_FLEET_STATE ?? join(__dirname, '..', '..', '.flux-fleet'),
  );
}

/** The kubeconfig with an admin context named after each cluster (and a `<cluster>-readonly` one). */
export function kubeconfigPath(): string {
  const path = join(stateDir(), 'kubeconfig');
  if (!existsSync(path)) {
    throw new Error(
      `No kubeconfig at ${path}: start the product with scripts/stack.sh up, or point FLUX_FLEET_STATE at its state folder`,
    );
  }
  return path;
}

/**
 * The URL of the fleet simulator's admin API (ground truth, faults), read from the ready line the simulator
 * prints into `sim.log`: `fleet-sim ready: N clusters, M objects, admin <url>`.
 */
export function simAdminUrl(): string {
  const log = join(stateDir(), 'sim.log');
  if (!existsSync(log)) {
    throw new Error(
      `No simulator log at ${log}: start the product with scripts/stack.sh up, or point FLUX_FLEET_STATE at its state folder`,
    );
  }
  const ready = /fleet-sim ready: .* admin (http\S+)/.exec(
    readFileSync(log, 'utf8'),
  );
  if (!ready) {
    throw new Error(
      `${log} has no "fleet-sim ready" line with the admin URL: is the simulator still starting, or did it fail?`,
    );
  }
  return ready[1];
}
