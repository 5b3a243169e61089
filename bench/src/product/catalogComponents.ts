/** The Components whose entity pages the benchmark views: a sample of the fleet's services, as catalog YAML. */
import { stringify } from 'yaml';

/** The Flux objects of the ground truth that matter here. */
interface ServiceObject {
  kind: string;
  service: string | null;
}

/**
 * Up to `count` services of the fleet, spread evenly over their sorted names (so rare and common ones alike),
 * always with `checkout`, which the simulator deploys on every cluster. Deterministic for a given fleet.
 */
export function sampleServices(
  objects: readonly ServiceObject[],
  count: number,
): string[] {
  const services = [
    ...new Set(
      objects
        .filter(
          o =>
            o.service &&
            (o.kind === 'Kustomization' || o.kind === 'HelmRelease'),
        )
        .map(o => o.service as string),
    ),
  ].sort();
  if (services.length <= count) return services;
  const picked = new Set<string>(
    services.includes('checkout') ? ['checkout'] : [],
  );
  const step = services.length / count;
  for (let i = 0; picked.size < count; i++)
    picked.add(services[Math.floor(i * step) % services.length]);
  return [...picked].sort();
}

/** A catalog file of one Component per service, linked to its Flux objects by `backstage.io/kubernetes-id`. */
export function componentsYaml(services: readonly string[]): string {
  return services
    .map(name =>
      stringify({
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Component',
        metadata: { name, annotations: { 'backstage.io/kubernetes-id': name } },
        spec: {
          type: 'service',
          lifecycle: 'production',
          owner: 'group:default/platform',
        },
      }),
    )
    .map(doc => `---\n${doc}`)
    .join('');
}
