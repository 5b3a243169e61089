// Turns the fleet simulator's kubeconfig into the Flux Fleet clusters config of the demo: one cluster per admin
// context, read through the kubeconfig file (so no token is copied into any app-config).
// With a catalog file (the simulator's --catalog), its Components and Groups join the catalog: config merging
// replaces arrays, so the locations of app-config.yaml are repeated before it.
// No environment is configured: each simulated cluster names its own in a label on kube-system (rules §11).
// Usage: node scripts/fleet-config.mjs <kubeconfig> [catalog.yaml] > app-config.fleet.yaml
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const YAML = require(require.resolve('yaml', { paths: [resolve('packages/fleet-sim')] }));
const file = resolve(process.argv[2]);
const kubeconfig = YAML.parse(readFileSync(file, 'utf8'));
const clusters = (kubeconfig.contexts ?? [])
  .map(c => c.name)
  .filter(name => !name.includes('readonly'))
  .sort()
  .map(name => ({
    name,
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
