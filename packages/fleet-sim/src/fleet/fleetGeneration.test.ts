import * as helmV2 from '@kubernetes-models/flux-cd/helm.toolkit.fluxcd.io/v2';
import * as imageV1 from '@kubernetes-models/flux-cd/image.toolkit.fluxcd.io/v1';
import * as imageV1beta2 from '@kubernetes-models/flux-cd/image.toolkit.fluxcd.io/v1beta2';
import * as kustomizeV1 from '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1';
import * as notificationV1 from '@kubernetes-models/flux-cd/notification.toolkit.fluxcd.io/v1';
import * as notificationV1beta3 from '@kubernetes-models/flux-cd/notification.toolkit.fluxcd.io/v1beta3';
import * as sourceV1 from '@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1';
import * as sourceV1beta2 from '@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1beta2';
import { fluxRelease, type FluxComponent } from '../api/fluxReleases';
import { coreResourceType } from '../api/resourceTypes';
import { generateFleet } from '../fleetSim';
import { resolveOptions } from '../options';
import { controllerOfDeployment } from '../sim/controlPlane';
import { readRecord } from '../sim/objectReading';
import { SimulatedCluster } from '../sim/simulatedCluster';
import { parseStored } from '../store/clusterStore';
import { fleetTruth } from '../truth/groundTruth';
import type { GeneratedCluster } from './clusterGenerator';

const EPOCH = '2026-11-30T12:00:00Z';

/** The model classes of @kubernetes-models/flux-cd, by apiVersion and kind. */
const MODELS: Record<string, Record<string, any>> = {
  'source.toolkit.fluxcd.io/v1': sourceV1,
  'source.toolkit.fluxcd.io/v1beta2': sourceV1beta2,
  'kustomize.toolkit.fluxcd.io/v1': kustomizeV1,
  'helm.toolkit.fluxcd.io/v2': helmV2,
  'notification.toolkit.fluxcd.io/v1': notificationV1,
  'notification.toolkit.fluxcd.io/v1beta3': notificationV1beta3,
  'image.toolkit.fluxcd.io/v1': imageV1,
  'image.toolkit.fluxcd.io/v1beta2': imageV1beta2,
};

/** Kinds the models package does not have: typed by hand from the CRDs. */
const HAND_TYPED_GROUPS = [
  'fluxcd.controlplane.io',
  'source.extensions.fluxcd.io',
];

function fluxObjects(cluster: GeneratedCluster): any[] {
  const out: any[] = [];
  for (const served of cluster.served) {
    if (!served.type.flux) continue;
    const apiVersion = `${served.type.group}/${served.versions[0]}`;
    for (const stored of cluster.store.table(served.type).objects.values()) {
      out.push(parseStored(stored, apiVersion, served.type.kind));
    }
  }
  return out;
}

function fingerprint(fleet: GeneratedCluster[]): string {
  return fleet
    .map(c =>
      c.store
        .allTables()
        .map(t =>
          t
            .keys()
            .map(k => t.objects.get(k)!.body)
            .join('\n'),
        )
        .join('\n'),
    )
    .join('\n');
}

/** The truth an hour after the fleet's epoch (requests made before the epoch are then unhandled for long). */
function truthOf(fleet: GeneratedCluster[], epoch = EPOCH) {
  return fleetTruth(
    fleet.map(c => ({
      name: c.name,
      server: 'x',
      fluxVersion: c.fluxVersion,
      records: c.records,
      malformed: [],
      controllers: c.plan ? c.plan.instances.flatMap(i => i.controllers) : [],
    })),
    Date.parse(epoch) + 3_600_000,
  );
}

describe('the generated S fleet', () => {
  const fleet = generateFleet(
    resolveOptions({ size: 'S', seed: 1, epoch: EPOCH }),
  );

  it('is deterministic: same seed and epoch, byte-identical objects and truth; another seed differs', () => {
    const again = generateFleet(
      resolveOptions({ size: 'S', seed: 1, epoch: EPOCH }),
    );
    expect(fingerprint(again)).toBe(fingerprint(fleet));
    expect(JSON.stringify(truthOf(again))).toBe(JSON.stringify(truthOf(fleet)));
    // The truth does not depend on the epoch.
    const laterEpoch = '2027-03-01T00:00:00Z';
    const later = generateFleet(
      resolveOptions({ size: 'S', seed: 1, epoch: laterEpoch }),
    );
    expect(JSON.stringify(truthOf(later, laterEpoch))).toBe(
      JSON.stringify(truthOf(fleet)),
    );
    const other = generateFleet(
      resolveOptions({ size: 'S', seed: 2, epoch: EPOCH }),
    );
    expect(JSON.stringify(truthOf(other))).not.toBe(
      JSON.stringify(truthOf(fleet)),
    );
  });

  it('validates every Flux object against @kubernetes-models/flux-cd at its stored version', () => {
    let validated = 0;
    const handTyped = new Set<string>();
    const failures: string[] = [];
    for (const cluster of fleet) {
      for (const object of fluxObjects(cluster)) {
        const [group] = object.apiVersion.split('/');
        if (HAND_TYPED_GROUPS.includes(group)) {
          handTyped.add(object.kind);
          continue;
        }
        const Model = MODELS[object.apiVersion]?.[object.kind];
        if (!Model) {
          failures.push(
            `${cluster.name}: no model for ${object.apiVersion} ${object.kind}`,
          );
          continue;
        }
        try {
          new Model(object).validate();
          validated++;
        } catch (error) {
          failures.push(
            `${cluster.name} ${object.kind} ${object.metadata.namespace}/${
              object.metadata.name
            }: ${(error as Error).message}`,
          );
        }
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(validated).toBeGreaterThan(2000);
    expect([...handTyped].sort()).toEqual([
      'ArtifactGenerator',
      'FluxInstance',
      'FluxReport',
      'ResourceSet',
      'ResourceSetInputProvider',
    ]);
  });

  it('reads back every object as it was built (placement, state, tenant, service account, service, references)', () => {
    const mismatches: string[] = [];
    for (const generated of fleet) {
      const cluster = new SimulatedCluster(generated, {
        minDelayMs: 0,
        maxDelayMs: 0,
      });
      for (const built of generated.records.values()) {
        const read = readRecord(
          built.kind,
          cluster.read(built.kind, built.namespace, built.name),
          cluster,
        );
        const summary = (r: typeof built | typeof read) => ({
          owner: r.placement.status,
          controllers: r.placement.controllers
            .map(c => `${c.instance}/${c.name}`)
            .sort(),
          operatorInstance: r.placement.operatorInstance,
          state: r.state,
          suspended: r.suspended,
          tenant: r.tenant,
          serviceAccountName: r.serviceAccountName,
          service: r.service,
          sources: r.sources.map(s => `${s.kind}/${s.namespace}/${s.name}`),
          dependsOn: r.dependsOn.map(s => `${s.kind}/${s.namespace}/${s.name}`),
          requestedAt: r.requestedAt,
          lastHandledReconcileAt: r.lastHandledReconcileAt,
        });
        if (JSON.stringify(summary(built)) !== JSON.stringify(summary(read))) {
          mismatches.push(
            `${generated.name} ${built.kind} ${built.namespace}/${
              built.name
            }: built ${JSON.stringify(summary(built))} read ${JSON.stringify(
              summary(read),
            )}`,
          );
        }
      }
      cluster.close();
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  });

  it('runs controller Deployments whose labels and args say exactly what the plan placed', () => {
    for (const cluster of fleet) {
      const deployments = [
        ...cluster.store.table(coreResourceType('Deployment')).objects.values(),
      ].map(s => parseStored(s));
      const read = deployments
        .map(controllerOfDeployment)
        .filter(c => c !== undefined);
      const planned = cluster.plan!.instances.flatMap(i => i.controllers);
      expect(
        read.sort((a, b) =>
          a!.name + a!.instance < b!.name + b!.instance ? -1 : 1,
        ),
      ).toEqual(
        planned.sort((a, b) =>
          a.name + a.instance < b.name + b.instance ? -1 : 1,
        ),
      );
      const fluxDeployments = deployments.filter(
        x => x.metadata.labels?.['app.kubernetes.io/part-of'] === 'flux',
      );
      // a second instance comes from a plain install.yaml: no version label, the release's images
      const labelled = fluxDeployments.filter(
        d => d.metadata.namespace === 'flux-system',
      );
      expect(
        new Set(
          labelled.map(d => d.metadata.labels['app.kubernetes.io/version']),
        ),
      ).toEqual(new Set([cluster.fluxVersion]));
      for (const d of fluxDeployments) {
        if (d.metadata.namespace === 'flux-system') continue;
        expect(d.metadata.labels['app.kubernetes.io/version']).toBeUndefined();
        const component = d.metadata.labels['app.kubernetes.io/component'];
        expect(d.spec.template.spec.containers[0].image).toBe(
          `ghcr.io/fluxcd/${component}:${
            fluxRelease(cluster.fluxVersion).controllerTags[
              component as FluxComponent
            ]
          }`,
        );
      }
      const shards = fluxDeployments.filter(
        d =>
          d.metadata.name !== d.metadata.labels['app.kubernetes.io/component'],
      );
      expect(
        shards.filter(
          d => d.metadata.annotations?.['sharding.fluxcd.io/role'] !== 'shard',
        ),
      ).toEqual([]);
      expect(
        shards.filter(
          d =>
            !d.spec.template.spec.containers[0].args.some((a: string) =>
              a.startsWith('--watch-label-selector='),
            ),
        ),
      ).toEqual([]);
    }
  });

  it('looks like a real fleet: Flux 2.4 to 2.8 (beta versions on 2.4), shards, operator, lockdown, tenants, a second instance', () => {
    const versions = fleet.map(c => c.fluxVersion);
    expect(versions).toEqual(expect.arrayContaining(['v2.4.0', 'v2.8.3']));
    const old = fleet.find(c => c.fluxVersion === 'v2.4.0')!;
    expect(
      old.served.find(s => s.type.kind === 'Kustomization')!.versions,
    ).toEqual(['v1', 'v1beta2', 'v1beta1']);
    expect(
      old.served.find(s => s.type.kind === 'OCIRepository')!.versions,
    ).toEqual(['v1beta2']);
    const controllers = fleet.flatMap(c =>
      c.plan!.instances.flatMap(i => i.controllers),
    );
    expect(
      controllers.filter(c => c.selector === '!sharding.fluxcd.io/key').length,
    ).toBeGreaterThan(0);
    expect(
      controllers.filter(c =>
        /^sharding\.fluxcd\.io\/key=shard\d$/.test(c.selector ?? ''),
      ).length,
    ).toBeGreaterThan(0);
    expect(
      controllers.some(c => c.noCrossNamespaceRefs && c.defaultServiceAccount),
    ).toBe(true);
    expect(controllers.some(c => c.operatorManaged)).toBe(true);
    expect(
      controllers.some(
        c => !c.watchAllNamespaces && c.instance !== 'flux-system',
      ),
    ).toBe(true);
    const fluxInstances = fleet.flatMap(c =>
      fluxObjects(c).filter(o => o.kind === 'FluxInstance'),
    );
    expect(fluxInstances.some(fi => fi.spec.sharding?.shards?.length > 0)).toBe(
      true,
    );
    for (const cluster of fleet) {
      const namespaces = [
        ...cluster.store.table(coreResourceType('Namespace')).objects.values(),
      ];
      expect(
        namespaces.filter(n => n.labels?.['toolkit.fluxcd.io/tenant']).length,
      ).toBeGreaterThan(5);
    }
  });

  it('deploys checkout on every cluster, with service names unique per fleet and shared across clusters', () => {
    const perCluster = fleet.map(c => {
      const services = new Set<string>();
      for (const d of c.store
        .table(coreResourceType('Deployment'))
        .objects.values()) {
        const id = d.labels?.['backstage.io/kubernetes-id'];
        if (id) services.add(id);
      }
      return services;
    });
    for (const [i, services] of perCluster.entries()) {
      expect(services.has('checkout')).toBe(true);
      expect(services.size).toBe(300);
      expect(
        fleet[i].records.get('team-shop/Kustomization/checkout')?.service,
      ).toBe('checkout');
    }
    const shared = [...perCluster[0]].filter(
      s => perCluster[1].has(s) && perCluster[2].has(s),
    );
    expect(shared.length).toBeGreaterThan(50);
    for (const name of perCluster[0])
      expect(name).toMatch(/^[a-z][a-z0-9-]*[a-z0-9]$/);
  });

  it('emits core Events about Flux objects from their controllers', () => {
    const events = fleet.flatMap(c =>
      [...c.store.table(coreResourceType('Event')).objects.values()].map(s =>
        parseStored(s),
      ),
    );
    expect(events.length).toBeGreaterThan(50);
    const warning = events.find(
      e => e.type === 'Warning' && e.involvedObject.kind === 'Kustomization',
    )!;
    expect(warning.source.component).toBe('kustomize-controller');
    expect(warning.involvedObject.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.some(e => e.source.component === 'helm-controller')).toBe(
      true,
    );
  });
});
