/**
 * The demo's catalog, written with the truth: a Component per simulated service, owned by its team's Group, so any
 * service of the simulated fleet opens in the catalog. The team is the tenant the simulator placed the service's
 * objects in (the tenant of most of them); a service outside every tenant is the platform team's.
 */
import { stringify } from 'yaml';
import type { GroundTruth } from './groundTruth';

/** The Group of services that belong to no tenant (examples/org.yaml defines it). */
export const PLATFORM_GROUP = 'platform';

/** Options of {@link catalogEntities}. */
export interface CatalogOptions {
  /** Entity names already defined elsewhere (examples/): neither a Component nor a Group of that name is written. */
  skip?: ReadonlySet<string>;
}

/** The team of each service: its objects' most common tenant (ties by name), else the platform team. */
export function teamsOfServices(truth: GroundTruth): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const o of truth.objects) {
    if (!o.service) continue;
    const tally = votes.get(o.service) ?? new Map<string, number>();
    if (o.tenant) tally.set(o.tenant, (tally.get(o.tenant) ?? 0) + 1);
    votes.set(o.service, tally);
  }
  const teams = new Map<string, string>();
  for (const [service, tally] of votes) {
    const best = [...tally.entries()].sort(
      ([a, x], [b, y]) => y - x || a.localeCompare(b),
    )[0];
    teams.set(service, best ? best[0] : PLATFORM_GROUP);
  }
  return teams;
}

/**
 * The catalog file: one Group per team (tenant) and one Component per service, annotated with
 * `backstage.io/kubernetes-id: <service>` and owned by `group:default/<team>`, as multi-document YAML.
 */
export function catalogEntities(
  truth: GroundTruth,
  options: CatalogOptions = {},
): string {
  const skip = options.skip ?? new Set<string>();
  const teams = teamsOfServices(truth);
  const docs: object[] = [];
  const groups = [...new Set(teams.values())]
    .filter(t => t !== PLATFORM_GROUP && !skip.has(t))
    .sort();
  for (const team of groups) {
    docs.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Group',
      metadata: {
        name: team,
        description: `The ${team} team (tenant ${team} of the simulated fleet).`,
      },
      spec: { type: 'team', children: [] },
    });
  }
  for (const [service, team] of [...teams.entries()].sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    if (skip.has(service)) continue;
    docs.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: service,
        description: `The ${service} service of the simulated fleet.`,
        annotations: { 'backstage.io/kubernetes-id': service },
      },
      spec: {
        type: 'service',
        lifecycle: 'production',
        owner: `group:default/${team}`,
      },
    });
  }
  return docs.map(d => `---\n${stringify(d)}`).join('');
}
