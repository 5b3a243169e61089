import {
  analyseCluster,
  ClusterAnalysisInput,
  createClusterContext,
  deriveObject,
  measuredUtilisationSignature,
  withMeasuredUtilisation,
} from './analysis';
import { controllerFromDeployment } from './controller';
import {
  fluxDeployment,
  shardedInstanceDeployments,
} from './fixtures/deployments';
import { fluxInstance } from './fixtures/fluxObjects';
import {
  gitRepositoryObject,
  helmReleaseObject,
  kustomizationObject,
} from './fixtures/objectBuilders';
import {
  normalizeFluxObject,
  normalizeNamespace,
  normalizeWorkload,
} from './normalize';
import type {
  FluxObjectRecord,
  NamespaceRecord,
  WorkloadLabels,
} from './record';
import type { FluxController } from './types';

const NOW = Date.parse('2026-07-14T10:00:00Z');
const SHARD1 = { 'sharding.fluxcd.io/key': 'shard1' };
const SHARD2 = { 'sharding.fluxcd.io/key': 'shard2' };

function recordOf(raw: unknown): FluxObjectRecord {
  const result = normalizeFluxObject('prod-eu', raw);
  if (!result.record) throw new Error(result.error);
  return result.record;
}

function controllersOf(deployments: unknown[]): FluxController[] {
  return deployments.map(d => {
    const result = controllerFromDeployment('prod-eu', d);
    if (!result.controller) throw new Error(result.reason);
    return result.controller;
  });
}

function namespace(name: string, tenant?: string): NamespaceRecord {
  return normalizeNamespace('prod-eu', {
    metadata: {
      name,
      labels: tenant ? { 'toolkit.fluxcd.io/tenant': tenant } : {},
    },
  }).record!;
}

/**
 * A cluster with a sharded instance (flux-system: main, shard1, shard2) and a legacy instance (flux-legacy) whose
 * kustomize-controller selects `team=legacy`, with one object for each kind of problem and a healthy rest.
 */
function scenario(): ClusterAnalysisInput {
  const controllers = controllersOf([
    ...shardedInstanceDeployments(),
    fluxDeployment({
      name: 'kustomize-controller',
      namespace: 'flux-legacy',
      image: 'ghcr.io/fluxcd/kustomize-controller:v1.2.0',
      labels: { 'app.kubernetes.io/version': 'v2.2.0' },
      args: [
        '--watch-label-selector=team=legacy',
        '--no-cross-namespace-refs=true',
        '--default-service-account=legacy',
      ],
    }),
  ]);
  const git = (ns: string, name: string) => ({
    kind: 'GitRepository' as const,
    name,
    namespace: ns,
  });
  const objects = [
    // healthy: the platform (tenant platform, from its namespace) on main
    gitRepositoryObject({ namespace: 'flux-system', name: 'flux-system' }),
    kustomizationObject({
      namespace: 'flux-system',
      name: 'platform-crds',
      serviceAccountName: 'platform',
    }),
    fluxInstance(),
    // payments (tenant payments, from its namespace) on shard1, with its source on shard1
    gitRepositoryObject({
      namespace: 'team-payments',
      name: 'payments',
      labels: SHARD1,
    }),
    gitRepositoryObject({ namespace: 'team-payments', name: 'payments-main' }),
    kustomizationObject({
      namespace: 'team-payments',
      name: 'payments-api',
      labels: SHARD1,
      serviceAccountName: 'team-payments',
      sourceRef: git('team-payments', 'payments'),
      // cross-tenant: platform-crds belongs to tenant platform
      dependsOn: [{ name: 'platform-crds', namespace: 'flux-system' }],
      inventory: [
        'team-payments_payments-api_apps_Deployment',
        'team-payments_payments-api__Service',
      ],
      lastReconciledDuration: '30s',
    }),
    // cross-shard: a shard1 Kustomization using a source on main
    kustomizationObject({
      namespace: 'team-payments',
      name: 'payments-config',
      labels: SHARD1,
      serviceAccountName: 'team-payments',
      sourceRef: git('team-payments', 'payments-main'),
    }),
    // orphan: a shard that does not exist
    kustomizationObject({
      namespace: 'team-payments',
      name: 'payments-lost',
      labels: { 'sharding.fluxcd.io/key': 'shard3' },
      serviceAccountName: 'team-payments',
      sourceRef: git('team-payments', 'payments'),
    }),
    // contested: unsharded and team=legacy, so main and flux-legacy both watch it
    gitRepositoryObject({ namespace: 'legacy', name: 'legacy' }),
    kustomizationObject({
      namespace: 'legacy',
      name: 'old-app',
      labels: { team: 'legacy' },
      sourceRef: git('legacy', 'legacy'),
    }),
    // boundary-none: tenant shop, no service account, instance without lockdown
    gitRepositoryObject({ namespace: 'team-shop', name: 'shop' }),
    kustomizationObject({
      namespace: 'team-shop',
      name: 'shop',
      sourceRef: git('team-shop', 'shop'),
    }),
    // reconcile requested an hour ago, never handled
    kustomizationObject({
      namespace: 'team-shop',
      name: 'shop-stuck',
      serviceAccountName: 'shop',
      sourceRef: git('team-shop', 'shop'),
      annotations: {
        'reconcile.fluxcd.io/requestedAt': '2026-07-14T09:00:00Z',
      },
      lastHandledReconcileAt: '2026-07-13T09:00:00Z',
    }),
    // shard2 overloaded: 12 HelmReleases every 10 s at the 20 s estimate = 24 slots over 4
    ...Array.from({ length: 12 }, (_, i) =>
      helmReleaseObject({
        namespace: 'team-shop',
        name: `busy-${i}`,
        labels: SHARD2,
        interval: '10s',
        serviceAccountName: 'shop',
        chartRef: { kind: 'OCIRepository', name: 'busy' },
      }),
    ),
    gitRepositoryObject({
      namespace: 'team-shop',
      name: 'unused',
      labels: SHARD2,
    }),
    // apps (tenant apps, from the mapping): a dependency cycle a <-> b, c depending on it (not on it), missing things
    gitRepositoryObject({ namespace: 'apps', name: 'apps' }),
    ...['a', 'b', 'c', 'needs-ghost'].map(name =>
      kustomizationObject({
        namespace: 'apps',
        name,
        serviceAccountName: 'apps',
        sourceRef: git('apps', 'apps'),
        dependsOn: [
          { name: { a: 'b', b: 'a', c: 'a', 'needs-ghost': 'ghost' }[name]! },
        ],
      }),
    ),
    kustomizationObject({
      namespace: 'apps',
      name: 'no-repo',
      serviceAccountName: 'apps',
      sourceRef: git('apps', 'gone'),
    }),
  ];
  // The OCIRepository the busy releases use, on shard2 with them.
  const oci = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'OCIRepository',
    metadata: { name: 'busy', namespace: 'team-shop', labels: SHARD2 },
    spec: { interval: '10m', url: 'oci://ghcr.io/acme/busy' },
  };
  const workloads = new Map<string, WorkloadLabels>(
    [
      normalizeWorkload('prod-eu', {
        kind: 'Deployment',
        metadata: {
          name: 'payments-api',
          namespace: 'team-payments',
          labels: { 'backstage.io/kubernetes-id': 'payments' },
        },
      }).record!,
    ].map(w => [w.id, w.labels]),
  );
  return {
    cluster: 'prod-eu',
    controllers,
    objects: [...objects, oci].map(recordOf),
    namespaces: new Map(
      [
        namespace('team-payments', 'payments'),
        namespace('flux-system', 'platform'),
        namespace('team-shop', 'shop'),
        namespace('apps'),
      ].map(n => [n.name, n]),
    ),
    workloads,
    tenantMapping: [{ tenant: 'apps', namespaces: ['apps'] }],
    now: NOW,
  };
}

describe('analyseCluster', () => {
  const analysis = analyseCluster(scenario());
  const findingsOf = (key: string) =>
    analysis.objects.get(`prod-eu/${key}`)!.findings.map(f => f.type);

  it('derives state, owner, boundary and service of every object', () => {
    const payments = analysis.objects.get(
      'prod-eu/team-payments/Kustomization/payments-api',
    )!;
    expect(payments.state).toMatchObject({ state: 'ready' });
    expect(payments.owner).toEqual({
      status: 'ok',
      instance: 'flux-system',
      shard: 'shard1',
      controller: 'kustomize-controller-shard1',
    });
    expect(payments.boundary).toMatchObject({
      tenant: 'payments',
      serviceAccount: 'team-payments',
      enforcement: 'partial',
    });
    expect(payments.service).toBe('payments');
    expect(analysis.objects.size).toBe(33);
  });

  it.each<[string, string[]]>([
    ['flux-system/Kustomization/platform-crds', []],
    ['team-payments/GitRepository/payments', []],
    ['team-payments/Kustomization/payments-api', ['cross-tenant-reference']],
    ['team-payments/Kustomization/payments-config', ['cross-shard-reference']],
    ['team-payments/Kustomization/payments-lost', ['orphan']],
    ['legacy/Kustomization/old-app', ['contested']],
    ['team-shop/Kustomization/shop', ['boundary-none']],
    ['team-shop/Kustomization/shop-stuck', ['reconcile-not-handled']],
    ['apps/Kustomization/a', ['dependency-cycle']],
    ['apps/Kustomization/b', ['dependency-cycle']],
    ['apps/Kustomization/c', []],
    ['apps/Kustomization/needs-ghost', ['missing-dependency']],
    ['apps/Kustomization/no-repo', ['missing-source']],
    ['team-shop/HelmRelease/busy-0', []],
    ['flux-system/FluxInstance/flux', []],
  ])('finds for %s: %j', (key, types) => {
    expect(findingsOf(key)).toEqual(types);
  });

  it('words findings so that they name the cluster and the objects involved', () => {
    const messages = Object.fromEntries(
      analysis.findings.map(f => [f.type, f.message]),
    );
    expect(messages).toEqual({
      orphan:
        'Kustomization team-payments/payments-lost in cluster prod-eu is reconciled by no controller, so nothing applies its changes: ' +
        'no kustomize-controller watches it (labels: sharding.fluxcd.io/key=shard3): ' +
        'flux-legacy/kustomize-controller selects team=legacy; flux-system/kustomize-controller selects !sharding.fluxcd.io/key; ' +
        'flux-system/kustomize-controller-shard1 selects sharding.fluxcd.io/key=shard1; flux-system/kustomize-controller-shard2 selects sharding.fluxcd.io/key=shard2',
      contested:
        'Kustomization legacy/old-app in cluster prod-eu is reconciled by 2 controllers at once, which fight over it: ' +
        'flux-legacy/kustomize-controller (shard legacy), flux-system/kustomize-controller (shard main)',
      'cross-shard-reference':
        'Kustomization team-payments/payments-config in cluster prod-eu (shard shard1 of instance flux-system) uses GitRepository ' +
        'team-payments/payments-main, which is reconciled by shard main of instance flux-system; a source and its consumers belong on the same shard',
      'cross-tenant-reference':
        'Kustomization team-payments/payments-api in cluster prod-eu of tenant payments depends on Kustomization flux-system/platform-crds of tenant platform',
      'boundary-none':
        'Kustomization team-shop/shop in cluster prod-eu of tenant shop runs with no tenancy boundary: ' +
        "runs as the controller's own identity (no spec.serviceAccountName and no --default-service-account); " +
        'cross-namespace references allowed (--no-cross-namespace-refs is off)',
      'reconcile-not-handled':
        'Kustomization team-shop/shop-stuck in cluster prod-eu: a reconcile was requested at 2026-07-14T09:00:00Z, 1h ago and its ' +
        'controller has not handled it; the last request handled was 2026-07-13T09:00:00Z',
      'dependency-cycle':
        'Kustomization apps/b in cluster prod-eu is on a dependsOn cycle, so none of it can become ready: apps/a → apps/b → apps/a',
      'missing-dependency':
        'Kustomization apps/needs-ghost in cluster prod-eu depends on Kustomization apps/ghost, which does not exist in the cluster',
      'missing-source':
        'Kustomization apps/no-repo in cluster prod-eu uses GitRepository apps/gone (spec.sourceRef), which does not exist in the cluster',
      'shard-over-capacity':
        'Shard shard2 of instance flux-system in cluster prod-eu is at an estimated 600 % of capacity: helm-controller-shard2 reconciles ' +
        '12 objects with --concurrent=4 (estimate: Σ reconcile duration ÷ interval ÷ concurrent)',
    });
  });

  it('lists related objects and orders the cluster findings by object then type, shards last', () => {
    const cycle = analysis.findings.filter(f => f.type === 'dependency-cycle');
    expect(cycle.map(f => f.object?.name)).toEqual(['a', 'b']);
    expect(cycle[0].related).toEqual([
      {
        cluster: 'prod-eu',
        namespace: 'apps',
        kind: 'Kustomization',
        name: 'b',
      },
    ]);
    expect(cycle[0].severity).toBe('error');
    expect(
      analysis.findings.map(f =>
        f.object
          ? `${f.object.namespace}/${f.object.name}`
          : `shard ${f.shard?.shard}`,
      ),
    ).toEqual([
      'apps/a',
      'apps/b',
      'apps/needs-ghost',
      'apps/no-repo',
      'legacy/old-app',
      'team-payments/payments-api',
      'team-payments/payments-config',
      'team-payments/payments-lost',
      'team-shop/shop',
      'team-shop/shop-stuck',
      'shard shard2',
    ]);
  });

  it('summarises instances with version, operator, lockdown, default service account, shards and objects', () => {
    expect(
      analysis.instances.map(({ controllers, ...rest }) => ({
        ...rest,
        controllers: controllers.length,
      })),
    ).toEqual([
      {
        cluster: 'prod-eu',
        name: 'flux-legacy',
        version: 'v2.2.0',
        versionSource: 'version-label',
        operatorManaged: false,
        watchAllNamespaces: true,
        lockdown: true,
        defaultServiceAccount: 'legacy',
        shards: ['legacy'],
        controllers: 1,
        objectCount: 0,
      },
      {
        cluster: 'prod-eu',
        name: 'flux-system',
        version: 'v2.8.3',
        versionSource: 'flux-operator',
        operatorManaged: false,
        fluxInstance: 'flux',
        watchAllNamespaces: true,
        lockdown: false,
        shards: ['main', 'shard1', 'shard2'],
        controllers: 10,
        objectCount: 31,
      },
    ]);
  });

  it("takes an instance's version from its FluxReport while its FluxInstance states none (rules §10)", () => {
    const input = scenario();
    const objects = [...input.objects];
    // a FluxInstance not applied yet (no status), and the report the operator writes of what runs
    const unapplied = objects.map(o =>
      o.kind === 'FluxInstance' ? recordOf({ ...fluxInstance(), status: {} }) : o,
    );
    const report = recordOf({
      apiVersion: 'fluxcd.controlplane.io/v1',
      kind: 'FluxReport',
      metadata: { name: 'flux', namespace: 'flux-system' },
      spec: { distribution: { version: 'v2.8.1', status: 'Installed', managedBy: 'flux-operator' } },
    });
    expect(report.revision).toBe('v2.8.1');
    const instanceOf = (o: FluxObjectRecord[]) =>
      analyseCluster({ ...input, objects: o }).instances.find(i => i.name === 'flux-system');
    expect(instanceOf([...unapplied, report])).toMatchObject({
      version: 'v2.8.1',
      versionSource: 'flux-operator',
    });
    // the FluxInstance's applied revision wins over the report
    expect(instanceOf([...objects, report])).toMatchObject({ version: 'v2.8.3', versionSource: 'flux-operator' });
    // with neither, the Deployments' version label says it
    expect(instanceOf(unapplied)).toMatchObject({ version: 'v2.8.3', versionSource: 'version-label' });
  });

  it('summarises shards with counts and the load of their busiest controller', () => {
    const shard2 = analysis.shards.find(
      s => s.instance === 'flux-system' && s.name === 'shard2',
    )!;
    expect(shard2).toEqual({
      cluster: 'prod-eu',
      instance: 'flux-system',
      name: 'shard2',
      selector: 'sharding.fluxcd.io/key=shard2',
      controllers: [
        'helm-controller-shard2',
        'kustomize-controller-shard2',
        'source-controller-shard2',
      ],
      objectCount: 14,
      countsByKind: { HelmRelease: 12, GitRepository: 1, OCIRepository: 1 },
      countsByState: { ready: 13, 'never-reconciled': 1 },
      utilisation: 6,
    });
    expect(analysis.shards.map(s => `${s.instance}/${s.name}`)).toEqual([
      'flux-legacy/legacy',
      'flux-system/main',
      'flux-system/shard1',
      'flux-system/shard2',
    ]);
  });

  it('estimates each controller from reported durations, estimates and intervals', () => {
    const load = (name: string, instance = 'flux-system') =>
      analysis.loads.find(
        l => l.controller === name && l.instance === instance,
      )!;
    // payments-api: 30 s every 10 m; payments-config: the 10 s estimate every 10 m; over --concurrent=4.
    expect(load('kustomize-controller-shard1').utilisation).toBeCloseTo(
      (30 / 600 + 10 / 600) / 4,
      6,
    );
    expect(load('kustomize-controller-shard1').objectCount).toBe(2);
    // The contested Kustomization loads both controllers that reconcile it: flux-legacy has it alone, and the
    // main kustomize-controller has it beside platform-crds, shop, shop-stuck and the five in apps.
    expect(load('kustomize-controller', 'flux-legacy').objectCount).toBe(1);
    expect(load('kustomize-controller').objectCount).toBe(9);
    // 33 objects: the FluxInstance (the operator's) and the orphan load nobody, the contested one loads two.
    expect(analysis.loads.reduce((n, l) => n + l.objectCount, 0)).toBe(
      33 - 2 + 1,
    );
  });

  it.each([
    // [measured utilisation of helm-controller-shard2, finding expected, its words]
    [undefined, true, 'an estimated 600 %'],
    [0.4, false, undefined],
    [1.3, true, 'a measured 130 %'],
  ])(
    'decides shard-over-capacity on measured utilisation when there is one (%s)',
    (measured, expected, words) => {
      const input = scenario();
      const result = analyseCluster({
        ...input,
        ...(measured === undefined
          ? {}
          : { measuredUtilisation: new Map([['flux-system/helm-controller-shard2', measured]]) }),
      });
      const finding = result.findings.find(f => f.type === 'shard-over-capacity');
      expect(finding !== undefined).toBe(expected);
      expect(finding?.message.includes(words ?? '') ?? false).toBe(expected);
      // shard summaries keep the §9 estimate whatever was measured
      expect(result.shards.find(sh => sh.name === 'shard2')!.utilisation).toBeCloseTo(6);
    },
  );

  it('leaves suspended objects out of the load', () => {
    const input = scenario();
    const records = [...input.objects].map(r =>
      r.kind === 'HelmRelease' ? { ...r, suspend: true } : r,
    );
    const quiet = analyseCluster({ ...input, objects: records });
    expect(
      quiet.loads.find(l => l.controller === 'helm-controller-shard2')!
        .utilisation,
    ).toBe(0);
    expect(quiet.findings.some(f => f.type === 'shard-over-capacity')).toBe(
      false,
    );
  });

  it('gives the same output for the same input, whatever the order of objects and controllers', () => {
    const input = scenario();
    const reversed = analyseCluster({
      ...input,
      objects: [...input.objects].reverse(),
      controllers: [...input.controllers].reverse(),
    });
    expect(reversed.findings).toEqual(analysis.findings);
    expect(reversed.instances).toEqual(analysis.instances);
    expect(reversed.shards).toEqual(analysis.shards);
    expect(reversed.loads).toEqual(analysis.loads);
  });

  it('shares owners and boundaries between objects that have the same ones', () => {
    const a = analysis.objects.get('prod-eu/apps/Kustomization/a')!;
    const b = analysis.objects.get('prod-eu/apps/Kustomization/b')!;
    expect(a.owner).toBe(b.owner);
    expect(a.boundary).toBe(b.boundary);
    expect(Object.isFrozen(a.boundary)).toBe(true);
  });

  it('says when it would come out differently by time alone: the earliest pending request turning not handled', () => {
    // shop-stuck's request is an hour old: not handled already, so nothing changes by time
    expect(analysis.changesByTimeAt).toBeUndefined();
    const input = scenario();
    const pending = (name: string, requestedAt: string) =>
      recordOf(
        kustomizationObject({
          namespace: 'team-shop',
          name,
          serviceAccountName: 'shop',
          sourceRef: { kind: 'GitRepository', name: 'shop' },
          annotations: { 'reconcile.fluxcd.io/requestedAt': requestedAt },
        }),
      );
    const objects = [
      ...(input.objects as FluxObjectRecord[]),
      pending('asked-2-min-ago', '2026-07-14T09:58:00Z'),
      pending('asked-1-min-ago', '2026-07-14T09:59:00Z'),
    ];
    const later = analyseCluster({ ...input, objects });
    expect(new Date(later.changesByTimeAt!).toISOString()).toBe(
      '2026-07-14T10:03:00.001Z',
    );
    // at that time the finding is there, and the next time is the other request's
    const then = analyseCluster({
      ...input,
      objects,
      now: later.changesByTimeAt! + 1,
    });
    expect(
      then.objects
        .get('prod-eu/team-shop/Kustomization/asked-2-min-ago')!
        .findings.map(f => f.type),
    ).toContain('reconcile-not-handled');
    expect(new Date(then.changesByTimeAt!).toISOString()).toBe(
      '2026-07-14T10:04:00.001Z',
    );
  });

  it('analyses a cluster without controllers or objects', () => {
    expect(
      analyseCluster({
        cluster: 'empty',
        controllers: [],
        objects: [],
        now: NOW,
      }),
    ).toEqual({
      cluster: 'empty',
      objects: new Map(),
      findings: [],
      instances: [],
      shards: [],
      loads: [],
    });
  });
});

describe('measuredUtilisationSignature', () => {
  // In scenario(), helm-controller-shard2 is estimated at 600 % (over capacity), kustomize-controller-shard1 within.
  const OVER_BY_ESTIMATE = 'flux-system/helm-controller-shard2';
  const WITHIN_BY_ESTIMATE = 'flux-system/kustomize-controller-shard1';
  const measurements: Array<[string, Array<[string, number]> | undefined]> = [
    ['none', undefined],
    ['an empty round', []],
    ['within, estimated within', [[WITHIN_BY_ESTIMATE, 0.3]]],
    ['busier but within, estimated within', [[WITHIN_BY_ESTIMATE, 0.95]]],
    ['over, estimated within', [[WITHIN_BY_ESTIMATE, 1.05]]],
    ['over by the same percent, estimated within', [[WITHIN_BY_ESTIMATE, 1.049]]],
    ['over by another percent, estimated within', [[WITHIN_BY_ESTIMATE, 1.3]]],
    ['within, estimated over', [[OVER_BY_ESTIMATE, 0.4]]],
    ['within by another figure, estimated over', [[OVER_BY_ESTIMATE, 0.8]]],
    ['over, estimated over', [[OVER_BY_ESTIMATE, 1.3]]],
    ['over, of a controller the cluster does not have', [['flux-system/no-such-controller', 1.5]]],
    [
      'both within, in another order',
      [
        [OVER_BY_ESTIMATE, 0.5],
        [WITHIN_BY_ESTIMATE, 0.2],
      ],
    ],
  ];
  const input = scenario();
  const loads = analyseCluster(input).loads;
  const outputOf = (m?: Array<[string, number]>) => {
    const result = analyseCluster({ ...input, ...(m && { measuredUtilisation: new Map(m) }) });
    return JSON.stringify({ ...result, objects: [...result.objects] });
  };
  const pairs = measurements.flatMap((a, i) => measurements.slice(i + 1).map(b => [a, b] as const));

  it.each(pairs.map(([a, b]) => [a[0], b[0], a[1], b[1]] as const))(
    'is equal for "%s" and "%s" exactly when the analyses are',
    (_a, _b, before, after) => {
      const sig = (m?: Array<[string, number]>) => measuredUtilisationSignature(m && new Map(m), loads);
      expect(sig(before) === sig(after)).toBe(outputOf(before) === outputOf(after));
    },
  );

  it.each(pairs.map(([a, b]) => [a[0], b[0], a[1], b[1]] as const))(
    'withMeasuredUtilisation gives the findings of an analysis with "%s" made again for "%s" exactly as that analysis does',
    (_a, _b, before, after) => {
      const analysed = analyseCluster({ ...input, ...(before && { measuredUtilisation: new Map(before) }) });
      const expected = analyseCluster({ ...input, ...(after && { measuredUtilisation: new Map(after) }) }).findings;
      expect(withMeasuredUtilisation(analysed, after && new Map(after))).toEqual(expected);
      // and back
      expect(withMeasuredUtilisation({ findings: expected, loads: analysed.loads }, before && new Map(before))).toEqual(
        analysed.findings,
      );
    },
  );

  it('tells apart what changes an analysis: a first measurement within capacity does not', () => {
    const sig = (m?: Array<[string, number]>) => measuredUtilisationSignature(m && new Map(m), loads);
    expect(sig([[WITHIN_BY_ESTIMATE, 0.3]])).toBe(sig(undefined));
    expect(sig([[OVER_BY_ESTIMATE, 0.4]])).not.toBe(sig(undefined));
    expect(sig([[WITHIN_BY_ESTIMATE, 1.05]])).not.toBe(sig([[WITHIN_BY_ESTIMATE, 1.3]]));
  });
});

describe('deriveObject', () => {
  it('re-derives one object against a prepared cluster, with the findings about it alone', () => {
    const input = scenario();
    const context = createClusterContext(input);
    const lost = [...input.objects].find(r => r.name === 'payments-lost')!;
    const d = deriveObject(lost, context, NOW);
    expect(d.owner.status).toBe('orphan');
    expect(d.findings.map(f => f.type)).toEqual(['orphan']);
    const noRepo = [...input.objects].find(r => r.name === 'no-repo')!;
    // Reference findings need the whole cluster: only analyseCluster gives them.
    expect(deriveObject(noRepo, context, NOW).findings).toEqual([]);
  });
});
