/**
 * Generates one realistic cluster for the benchmarks: a sharded Flux instance and tenants whose namespaces hold
 * a GitRepository, Kustomizations in dependsOn chains with inventories, HelmReleases with their OCIRepositories,
 * image automation and alerts; mostly ready, some failing, blocked, suspended or never reconciled. Deterministic
 * for a seed. The raw objects come out of JSON.parse, as from a cluster's API: flat strings, one per occurrence.
 */
import {
  fluxDeployment,
  shardedInstanceDeployments,
} from '../src/fixtures/deployments';

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hex(random: () => number, length: number): string {
  let s = '';
  while (s.length < length) s += Math.floor(random() * 16).toString(16);
  return s;
}

/** Copies a string so that it is a distinct allocation, as JSON.parse gives one per occurrence. */
function fresh(text: string): string {
  return JSON.parse(JSON.stringify(text));
}

export interface GeneratedCluster {
  raw: unknown[];
  deployments: unknown[];
  namespaces: unknown[];
  workloads: unknown[];
}

/** About `objectCount` Flux objects in one cluster. */
export function generateCluster(
  objectCount: number,
  seed = 1,
): GeneratedCluster {
  const random = prng(seed);
  const raw: unknown[] = [];
  const namespaces: unknown[] = [];
  const workloads: unknown[] = [];
  let tenantIndex = 0;
  const time = (minutesAgo: number) =>
    new Date(Date.UTC(2026, 6, 14, 10) - minutesAgo * 60_000)
      .toISOString()
      .replace('.000', '');
  raw.push({
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name: 'flux-system', namespace: 'flux-system', generation: 1 },
    spec: {
      interval: '1m',
      url: 'ssh://git@github.com/acme/fleet.git',
      ref: { branch: 'main' },
    },
    status: {
      observedGeneration: 1,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Succeeded',
          message: 'stored artifact',
        },
      ],
    },
  });
  raw.push({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'platform', namespace: 'flux-system', generation: 1 },
    spec: {
      interval: '10m',
      path: './platform',
      prune: true,
      sourceRef: { kind: 'GitRepository', name: 'flux-system' },
    },
    status: {
      observedGeneration: 1,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ReconciliationSucceeded',
          message: 'Applied revision: main@sha1:1',
        },
      ],
    },
  });
  while (raw.length < objectCount) {
    const tenant = `tenant-${tenantIndex++}`;
    const ns = `team-${tenant}`;
    const shard = ['shard1', 'shard2', undefined][tenantIndex % 3];
    const shardLabels: Record<string, string> = shard
      ? { 'sharding.fluxcd.io/key': shard }
      : {};
    namespaces.push({
      metadata: { name: ns, labels: { 'toolkit.fluxcd.io/tenant': tenant } },
    });
    const sha = hex(random, 40);
    const revision = `main@sha1:${sha}`;
    const ready = (
      i: number,
      reason = 'ReconciliationSucceeded',
      message = `Applied revision: ${revision}`,
    ) => ({
      type: 'Ready',
      status: 'True',
      reason,
      observedGeneration: 1,
      lastTransitionTime: time(i % 600),
      message: fresh(message),
    });
    const meta = (name: string, extra: Record<string, string> = {}) => ({
      name,
      namespace: ns,
      uid: `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(
        random,
        4,
      )}-${hex(random, 12)}`,
      generation: 1,
      resourceVersion: String(Math.floor(random() * 1e8)),
      labels: {
        ...shardLabels,
        'kustomize.toolkit.fluxcd.io/name': 'tenants',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
        ...extra,
      },
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': fresh(
          `{"apiVersion":"v1","metadata":{"name":"${name}"}}`,
        ),
      },
      finalizers: ['finalizers.fluxcd.io'],
    });
    raw.push({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: meta(tenant),
      spec: {
        interval: '1m',
        url: `https://github.com/acme/${tenant}-deploy.git`,
        ref: { branch: 'main' },
      },
      status: {
        observedGeneration: 1,
        artifact: {
          revision,
          digest: `sha256:${hex(random, 64)}`,
          path: `gitrepository/${ns}/${tenant}/${sha}.tar.gz`,
          url: `http://source-controller${
            shard ? `-${shard}` : ''
          }.flux-system.svc.cluster.local./gitrepository/${ns}/${tenant}/${sha}.tar.gz`,
          lastUpdateTime: time(3),
          size: 48213,
        },
        conditions: [
          ready(1, 'Succeeded', `stored artifact for revision '${revision}'`),
        ],
      },
    });
    const apps = 6 + Math.floor(random() * 8);
    for (let i = 0; i < apps; i++) {
      const name = `${tenant}-app-${i}`;
      const roll = random();
      const failing = (reason: string, message: string) => [
        {
          type: 'Ready',
          status: 'False',
          reason,
          observedGeneration: 1,
          lastTransitionTime: time(5),
          message: fresh(message),
        },
      ];
      let conditions: unknown[] = [
        ready(i),
        {
          type: 'Healthy',
          status: 'True',
          reason: 'Succeeded',
          observedGeneration: 1,
          lastTransitionTime: time(i),
          message: 'Health check passed in 1.2s',
        },
      ];
      if (roll < 0.04) {
        conditions = failing(
          'HealthCheckFailed',
          `health check failed after 3m0s: timeout waiting for: [Deployment/${ns}/${name} status: 'InProgress']`,
        );
      } else if (roll < 0.06) {
        conditions = failing(
          'DependencyNotReady',
          `dependency '${ns}/${tenant}-app-${i - 1}' is not ready`,
        );
      }
      const inventory = [
        { id: `${ns}_${name}__Service`, v: 'v1' },
        { id: `${ns}_${name}_apps_Deployment`, v: 'v1' },
        { id: `${ns}_${name}__ConfigMap`, v: 'v1' },
        { id: `${ns}_${name}_networking.k8s.io_Ingress`, v: 'v1' },
        { id: `${ns}_${name}_policy_PodDisruptionBudget`, v: 'v1' },
        { id: `${ns}_${name}__ServiceAccount`, v: 'v1' },
      ];
      workloads.push({
        kind: 'Deployment',
        metadata: {
          name,
          namespace: ns,
          labels: { 'backstage.io/kubernetes-id': name, app: name },
        },
      });
      raw.push({
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: meta(name),
        spec: {
          interval: '10m',
          retryInterval: '2m',
          timeout: '3m',
          path: `./apps/${name}`,
          prune: true,
          wait: true,
          suspend: roll > 0.99,
          serviceAccountName: tenantIndex % 5 === 0 ? undefined : tenant,
          sourceRef: { kind: 'GitRepository', name: tenant },
          dependsOn:
            i > 0
              ? [{ name: `${tenant}-app-${i - 1}` }]
              : [{ name: 'platform', namespace: 'flux-system' }],
        },
        status: {
          observedGeneration: 1,
          lastHandledReconcileAt: time(60),
          lastAppliedRevision: revision,
          lastAttemptedRevision: revision,
          conditions,
          inventory: { entries: inventory },
          history: [
            {
              digest: `sha256:${hex(random, 64)}`,
              firstReconciled: time(600),
              lastReconciled: time(i),
              lastReconciledDuration: `${(random() * 60).toFixed(1)}s`,
              lastReconciledStatus: 'ReconciliationSucceeded',
              totalReconciliations: 40,
              metadata: { revision },
            },
          ],
        },
      });
      if (i % 2 === 0) {
        raw.push({
          apiVersion: 'source.toolkit.fluxcd.io/v1',
          kind: 'OCIRepository',
          metadata: meta(`${name}-chart`),
          spec: {
            interval: '5m',
            url: `oci://ghcr.io/acme/charts/${name}`,
            ref: { semver: '1.x' },
          },
          status:
            random() < 0.02
              ? undefined
              : {
                  observedGeneration: 1,
                  artifact: {
                    revision: `1.4.2@sha256:${hex(random, 64)}`,
                    digest: `sha256:${hex(random, 64)}`,
                    path: 'x',
                    url: `http://source-controller.flux-system.svc.cluster.local./ocirepository/${ns}/${name}.tgz`,
                    lastUpdateTime: time(4),
                  },
                  conditions: [
                    ready(
                      i,
                      'Succeeded',
                      "stored artifact for digest '1.4.2@sha256:0cc9a8446c95'",
                    ),
                  ],
                },
        });
        raw.push({
          apiVersion: 'helm.toolkit.fluxcd.io/v2',
          kind: 'HelmRelease',
          metadata: meta(`${name}-release`, {
            'backstage.io/kubernetes-id': name,
          }),
          spec: {
            interval: '30m',
            releaseName: name,
            serviceAccountName: tenant,
            chartRef: { kind: 'OCIRepository', name: `${name}-chart` },
          },
          status: {
            observedGeneration: 1,
            lastAttemptedRevision: '1.4.2',
            conditions: [
              ready(
                i,
                'UpgradeSucceeded',
                `Helm upgrade succeeded for release ${ns}/${name}.v4 with chart ${name}@1.4.2`,
              ),
            ],
            history: [
              {
                name,
                namespace: ns,
                version: 4,
                status: 'deployed',
                chartName: name,
                chartVersion: '1.4.2',
                appVersion: '1.4.2',
                firstDeployed: time(9000),
                lastDeployed: time(30),
                configDigest: `sha256:${hex(random, 64)}`,
                digest: `sha256:${hex(random, 64)}`,
              },
            ],
          },
        });
      }
    }
    raw.push({
      apiVersion: 'image.toolkit.fluxcd.io/v1',
      kind: 'ImageRepository',
      metadata: meta(tenant),
      spec: { image: `ghcr.io/acme/${tenant}`, interval: '5m' },
      status: {
        observedGeneration: 1,
        conditions: [ready(2, 'Succeeded', 'successful scan: found 42 tags')],
      },
    });
    raw.push({
      apiVersion: 'image.toolkit.fluxcd.io/v1',
      kind: 'ImagePolicy',
      metadata: meta(tenant),
      spec: {
        imageRepositoryRef: { name: tenant },
        policy: { semver: { range: '1.x' } },
      },
      status: {
        observedGeneration: 1,
        latestRef: { name: `ghcr.io/acme/${tenant}`, tag: '1.4.2' },
        conditions: [
          ready(
            2,
            'Succeeded',
            `Latest image tag for ghcr.io/acme/${tenant} resolved to 1.4.2`,
          ),
        ],
      },
    });
    raw.push({
      apiVersion: 'notification.toolkit.fluxcd.io/v1beta3',
      kind: 'Provider',
      metadata: meta('slack'),
      spec: {
        type: 'slack',
        channel: `${tenant}-alerts`,
        secretRef: { name: 'slack-webhook' },
      },
    });
    raw.push({
      apiVersion: 'notification.toolkit.fluxcd.io/v1beta3',
      kind: 'Alert',
      metadata: meta(`${tenant}-alerts`),
      spec: {
        providerRef: { name: 'slack' },
        eventSeverity: 'error',
        eventSources: [{ kind: 'Kustomization', name: '*' }],
      },
    });
  }
  return {
    raw: raw
      .slice(0, objectCount)
      .map(object => JSON.parse(JSON.stringify(object))),
    deployments: [
      ...shardedInstanceDeployments({
        defaultServiceAccount: 'tenant-default',
      }),
      fluxDeployment({ name: 'image-reflector-controller' }),
      fluxDeployment({ name: 'image-automation-controller' }),
    ],
    namespaces,
    workloads,
  };
}
