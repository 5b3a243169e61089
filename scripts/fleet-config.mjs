// Turns the fleet simulator's kubeconfig into the Flux Fleet clusters config of the demo: one cluster per admin
// context, read through the kubeconfig file (so no token is copied into any app-config).
// Usage: node scripts/fleet-config.mjs <kubeconfig> > app-config.fleet.yaml
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
  .map(name => ({ name, kubeconfig: { path: file, context: name } }));
process.stdout.write(YAML.stringify({ fluxFleet: { clusters } }));
