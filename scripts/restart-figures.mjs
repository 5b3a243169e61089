// `make chaos`'s restart of the real backend (issue 11: "restored data answers within 1 s of the HTTP listener
// opening"): restarts the backend of a running stack (scripts/stack.sh backend, the simulated fleet going on) and
// measures, from outside as a user would meet it, when the new backend's HTTP listener opens and when its Flux
// Fleet API first answers with the objects it restored from its database. Appends the figures to the chaos table,
// with whether the aim (1 s after the listener opens) is met; exits 1 when the first answer with objects is not
// the restored snapshot (a cluster already re-listed, or not every cluster there) or none comes within 120 s.
// Usage: FLUX_FLEET_STATE=… PORT=… FLUX_FLEET_API_TOKEN=… node scripts/restart-figures.mjs <figures.jsonl>
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const port = Number(process.env.PORT);
const token = process.env.FLUX_FLEET_API_TOKEN;
const figures = process.argv[2];
const AIM_MS = 1_000;
const sleep = ms => new Promise(r => setTimeout(r, ms));

function listening() {
  return new Promise(resolve => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The clusters the Flux Fleet API answers with, or undefined while it does not answer 200. */
async function clusters() {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/flux-fleet/clusters`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(2_000),
    });
    if (res.status !== 200) return undefined;
    return (await res.json()).items;
  } catch {
    return undefined;
  }
}

const before = await clusters();
if (!before?.length) throw new Error('restart: the stack does not answer /api/flux-fleet/clusters before the restart');
const objectsBefore = before.reduce((n, c) => n + c.objectCount, 0);

const restart = spawn('scripts/stack.sh', ['backend'], { stdio: ['ignore', 'inherit', 'inherit'] });
const restarted = new Promise(done => restart.on('exit', done));
// the old backend's listener closes first
while (await listening()) await sleep(5);
const stoppedAt = Date.now();
while (!(await listening())) await sleep(5);
const listenAt = Date.now();
let answer;
while (!(answer = await clusters())?.some(c => c.objectCount > 0)) {
  if (Date.now() - listenAt > 120_000) throw new Error('restart: no restored objects 120 s after the listener opened');
  await sleep(10);
}
const answeredAt = Date.now();
const objects = answer.reduce((n, c) => n + c.objectCount, 0);
const statuses = [...new Set(answer.map(c => c.status))].sort().join(', ');
const restored = answer.every(c => c.status === 'restored' && c.objectCount > 0);
while (!(await clusters())?.every(c => c.synced)) {
  if (Date.now() - answeredAt > 300_000) throw new Error('restart: not every cluster synced 300 s after the restore');
  await sleep(100);
}
const syncedAt = Date.now();
const code = await restarted;
if (code !== 0) throw new Error(`restart: scripts/stack.sh backend exited ${code}`);

const rows = [
  {
    figure: 'listener open → restored objects answered (real backend, SQLite file)',
    value: `${answeredAt - listenAt} ms (${objects} of ${objectsBefore} objects, status ${statuses}); aim ${AIM_MS} ms: ${
      answeredAt - listenAt <= AIM_MS ? 'met' : 'not met'
    }`,
  },
  {
    figure: 'backend stopped → listener open / → every cluster synced',
    value: `${listenAt - stoppedAt} ms / ${syncedAt - stoppedAt} ms`,
  },
];
for (const row of rows) {
  appendFileSync(figures, `${JSON.stringify({ scenario: 'restart (backend)', ...row, source: 'measured' })}\n`);
}
console.log(
  `restart: ${objects} objects (${statuses}) ${answeredAt - listenAt} ms after the listener opened (aim ${AIM_MS} ms)`,
);
if (!restored) {
  console.error(`restart: the first answer with objects was not every cluster restored from its snapshot: ${statuses}`);
  process.exit(1);
}
