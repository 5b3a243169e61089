// Turns the fleet simulator's kubeconfig into the Flux Fleet clusters config of the demo: one cluster per admin
// context, read through the kubeconfig file (so no token is copied into any app-config).
// With a catalog file (the simulator's --catalog), its Components and Groups join the catalog: config merging
// replaces arrays, so the locations of app-config.yaml are repeated before it.
// With the simulator's truth file (--truth), each cluster gets the environment it was built for.
// Usage: node scripts/fleet-config.mjs <kubeconfig> [catalog.yaml] [truth.json] > app-config.fleet.yaml
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const YAML = require(require.resolve('yaml', { paths: [resolve('packages/fleet-sim')] }));
const file = resolve(process.argv[2]);
const kubeconfig = YAML.parse(readFileSync(file, 'utf8'));
const truth = process.argv[4] ? JSON.parse(readFileSync(resolve(process.argv[4]), 'utf8')) : undefined;
const environments = new Map((truth?.clusters ?? []).filter(c => c.environment).map(c => [c.name, c.environment]));
const clusters = (kubeconfig.contexts ?? [])
  .map(c => c.name)
  .filter(name => !name.includes('readonly'))
  .sort()
  .map(name => ({
    name,
    ...(environments.has(name) && { environment: environments.get(name) }),
    kubeconfig: { path: file, context: name },
  }));
const config = { fluxFleet: { clusters } };
if (process.argv[3]) {
  const base = YAML.parse(readFileSync(resolve('app-config.yaml'), 'utf8'));
  config.catalog = {
    locations: [
      ...(base.catalog?.locations ?? []),
      { type: 'file', target: resolve(process.argv[3]), rules: [{ allow: ['Component', 'Group'] }] },
    ],
  };
}
process.stdout.write(YAML.stringify(config));
