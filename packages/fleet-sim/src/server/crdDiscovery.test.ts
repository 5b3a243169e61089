/**
 * Checks served discovery against the real Flux CRDs in the shared folder (`FLUX_FLEET_SHARED`, default
 * /work/shared): for a cluster on the newest Flux release, every group serves exactly the versions its CRDs
 * serve, and each resource has the CRD's names, scope, subresources and printer columns. Skipped, with a
 * message, when the folder is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FLUX_RESOURCE_TYPES } from '../api/resourceTypes';
import { call } from '../__testUtils__/fleetClients';
import { startFleetSim, type FleetSim } from '../fleetSim';

const CRDS = join(process.env.FLUX_FLEET_SHARED ?? '/work/shared', 'crds');
const present = existsSync(CRDS);

(present ? describe : describe.skip)(
  present
    ? 'served discovery against the Flux CRDs of shared/crds'
    : `served discovery against the Flux CRDs (skipped: no CRDs at ${CRDS}; set FLUX_FLEET_SHARED to run)`,
  () => {
    let sim: FleetSim;
    const crds = existsSync(CRDS)
      ? readdirSync(CRDS)
          .filter(f => f.endsWith('.yaml'))
          .map(f => parse(readFileSync(join(CRDS, f), 'utf8')))
      : [];

    beforeAll(async () => {
      // Empty clusters serve the newest release and the Flux Operator's kinds.
      sim = await startFleetSim({ clusters: 1, empty: true });
    });
    afterAll(() => sim?.close());

    it('serves, per group, exactly the versions the CRDs serve', async () => {
      const [cluster] = sim.clusters;
      const groups = [...new Set(crds.map(c => c.spec.group as string))];
      expect(groups.length).toBeGreaterThanOrEqual(6);
      for (const group of groups) {
        const expected = [
          ...new Set(
            crds
              .filter(c => c.spec.group === group)
              .flatMap(c =>
                c.spec.versions
                  .filter((v: any) => v.served)
                  .map((v: any) => v.name),
              ),
          ),
        ].sort();
        const served = (await call(cluster, `/apis/${group}`)).body;
        expect([
          group,
          served.versions.map((v: any) => v.version).sort(),
        ]).toEqual([group, expected]);
      }
    });

    it('serves each kind with the names, scope, status subresource and printer columns of its CRD', async () => {
      const [cluster] = sim.clusters;
      for (const crd of crds) {
        const { group, names, scope, versions } = crd.spec;
        for (const version of versions.filter((v: any) => v.served)) {
          const list = (await call(cluster, `/apis/${group}/${version.name}`))
            .body;
          const resource = list.resources.find(
            (r: any) => r.name === names.plural,
          );
          expect({
            kind: resource.kind,
            singular: resource.singularName,
            namespaced: resource.namespaced,
            shortNames: resource.shortNames ?? [],
            categories: resource.categories ?? [],
            status: list.resources.some(
              (r: any) => r.name === `${names.plural}/status`,
            ),
          }).toEqual({
            kind: names.kind,
            singular: names.singular,
            namespaced: scope === 'Namespaced',
            shortNames: names.shortNames ?? [],
            categories: names.categories ?? [],
            status: version.subresources?.status !== undefined,
          });
          const type = FLUX_RESOURCE_TYPES.find(t => t.kind === names.kind)!;
          expect([
            names.kind,
            type.listKind,
            type.columns.map(c => [
              c.name,
              c.type,
              c.jsonPath,
              c.priority ?? 0,
            ]),
          ]).toEqual([
            names.kind,
            names.listKind,
            (version.additionalPrinterColumns ?? []).map((c: any) => [
              c.name,
              c.type,
              c.jsonPath,
              c.priority ?? 0,
            ]),
          ]);
        }
      }
    });
  },
);
