import { mockServices } from '@backstage/backend-test-utils';
import { FleetIndex } from './FleetIndex';

function kustomization(
  name: string,
  labels: Record<string, string>,
  inventory: string[] = [],
  spec: Record<string, unknown> = {},
) {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name, namespace: 'apps', generation: 1, labels },
    spec: { interval: '10m', sourceRef: { kind: 'GitRepository', name: 'apps' }, ...spec },
    status: {
      observedGeneration: 1,
      conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied' }],
      inventory: { entries: inventory.map(id => ({ id, v: 'v1' })) },
    },
  };
}

function deployment(name: string, labels: Record<string, string>) {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'apps', labels } };
}

describe('FleetIndex', () => {
  let index: FleetIndex;

  beforeEach(async () => {
    index = new FleetIndex({
      clusters: ['lab'],
      tenants: [],
      analysis: { debounceMs: 1, maxDelayMs: 5, refreshIntervalMs: 60_000 },
      eventsPerObject: 5,
      logger: mockServices.logger.mock(),
    });
    const store = index.storeOf('lab');
    const workloads = store.supporting('workloads', {
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      plural: 'deployments',
    });
    workloads.upsert(deployment('api', { team: 'payments', 'backstage.io/kubernetes-id': 'payments-api' }));
    workloads.upsert(deployment('worker', { team: 'search' }));
    const kustomizations = store.flux({
      group: 'kustomize.toolkit.fluxcd.io',
      version: 'v1',
      kind: 'Kustomization',
      plural: 'kustomizations',
    });
    kustomizations.upsert(kustomization('labelled', { team: 'payments' }));
    kustomizations.upsert(kustomization('applies-api', {}, ['apps_api_apps_Deployment', 'apps_api__Service']));
    kustomizations.upsert(kustomization('applies-worker', {}, ['apps_worker_apps_Deployment']));
    // applies to another cluster: its inventory is not this cluster's workloads
    kustomizations.upsert(
      kustomization('remote', {}, ['apps_api_apps_Deployment'], { kubeConfig: { secretRef: { name: 'remote' } } }),
    );
    await new Promise(resolve => setTimeout(resolve, 50));
  });

  afterEach(() => index.close());

  it('links a label selector to objects by their own labels and by the workloads they applied', () => {
    const keys = (selector: string) =>
      index.entityObjects({ labelSelector: selector }).map(o => o.ref.name);
    expect(keys('team=payments')).toEqual(['applies-api', 'labelled']);
    expect(keys('team=search')).toEqual(['applies-worker']);
    expect(keys('team in (payments,search),team!=payments')).toEqual(['applies-worker']);
    expect(keys('team=nobody')).toEqual([]);
  });

  it('links a kubernetes-id to the objects that applied its workloads, not to one applying elsewhere', () => {
    expect(index.entityObjects({ kubernetesId: 'payments-api' }).map(o => o.ref.name)).toEqual([
      'applies-api',
    ]);
  });
});
