import { generateFleet } from '../fleetSim';
import type { ControllerSpec, SimulatedObject } from '../fleet/model';
import { recordKey } from '../fleet/model';
import { resolveOptions } from '../options';
import { clusterTruth, fleetTruth } from './groundTruth';

const OBJECT_FINDINGS = [
  'orphan',
  'contested',
  'cross-shard-reference',
  'cross-tenant-reference',
  'boundary-none',
  'reconcile-not-handled',
  'dependency-cycle',
  'missing-dependency',
  'missing-source',
];

describe('the truth of the S fleet', () => {
  const epoch = Date.parse('2026-11-30T12:00:00Z');
  const fleet = generateFleet(resolveOptions({ size: 'S', seed: 1, epoch }));
  const truth = fleetTruth(
    fleet.map(c => ({
      name: c.name,
      server: 'x',
      fluxVersion: c.fluxVersion,
      records: c.records,
      malformed: [],
      controllers: c.plan ? c.plan.instances.flatMap(i => i.controllers) : [],
    })),
    epoch + 3_600_000,
  );
  const key = (o: {
    cluster: string;
    kind: string;
    namespace: string;
    name: string;
  }) => `${o.cluster}/${o.namespace}/${o.kind}/${o.name}`;
  const objects = new Map(truth.objects.map(o => [key(o), o]));

  it('has every object-level finding type, each naming an existing object', () => {
    expect([...new Set(truth.findings.map(f => f.type))].sort()).toEqual(
      [...OBJECT_FINDINGS].sort(),
    );
    for (const finding of truth.findings)
      expect(objects.has(key(finding))).toBe(true);
  });

  it('records every deliberate problem as a finding on the object it was given to', () => {
    let checked = 0;
    for (const cluster of fleet) {
      for (const record of cluster.records.values()) {
        for (const problem of record.problems ?? []) {
          if (!OBJECT_FINDINGS.includes(problem)) continue;
          checked++;
          expect(truth.findings).toContainEqual({
            type: problem,
            cluster: cluster.name,
            kind: record.kind,
            namespace: record.namespace,
            name: record.name,
          });
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('gives instance and shard only to objects with one owner, and uses the words of the rules', () => {
    const states = [
      'ready',
      'progressing',
      'failed',
      'blocked',
      'stalled',
      'suspended',
      'never-reconciled',
      'terminating',
      'unknown',
    ];
    expect(
      truth.objects.filter(o => o.owner === 'ok' && o.shard === null),
    ).toEqual([]);
    expect(
      truth.objects.filter(
        o => o.owner !== 'ok' && (o.instance !== null || o.shard !== null),
      ),
    ).toEqual([]);
    expect(truth.objects.filter(o => !states.includes(o.state))).toEqual([]);
    expect(
      truth.objects.filter(
        o => !['none', 'partial', 'enforced'].includes(o.boundary),
      ),
    ).toEqual([]);
    expect(
      truth.objects.filter(
        o =>
          o.kind !== 'Kustomization' &&
          o.kind !== 'HelmRelease' &&
          o.serviceAccount !== null,
      ),
    ).toEqual([]);
    // A namespace-scoped second instance owns its own objects: none of them is contested by accident.
    const second = fleet.flatMap(c =>
      c
        .plan!.instances.filter(i => i.namespaceScoped)
        .map(i => ({ cluster: c.name, ns: i.namespace })),
    );
    expect(second.length).toBeGreaterThan(0);
    for (const { cluster, ns } of second) {
      const held = truth.objects.filter(
        o => o.cluster === cluster && o.namespace === ns,
      );
      expect(held.length).toBeGreaterThan(5);
      expect(held.filter(o => o.owner !== 'ok')).toEqual([]);
      expect(new Set(held.map(o => o.instance))).toEqual(new Set([ns]));
    }
  });

  it('spreads states like a live fleet: mostly ready, some failing, blocked, stalled, suspended, progressing', () => {
    const counts: Record<string, number> = {};
    for (const o of truth.objects) counts[o.state] = (counts[o.state] ?? 0) + 1;
    expect(counts.ready / truth.objects.length).toBeGreaterThan(0.8);
    for (const state of [
      'failed',
      'blocked',
      'stalled',
      'suspended',
      'progressing',
      'never-reconciled',
    ]) {
      expect(counts[state]).toBeGreaterThan(0);
    }
  });
});

describe('truth rules on hand-built records', () => {
  const controller = (over: Partial<ControllerSpec>): ControllerSpec => ({
    instance: 'flux-system',
    name: 'kustomize-controller',
    component: 'kustomize-controller',
    shard: 'main',
    watchAllNamespaces: true,
    concurrent: 4,
    noCrossNamespaceRefs: false,
    noRemoteBases: false,
    replicas: 1,
    operatorManaged: false,
    version: 'v2.8.3',
    ...over,
  });
  const main = controller({});
  const locked = controller({
    name: 'kustomize-controller-shard1',
    shard: 'shard1',
    noCrossNamespaceRefs: true,
    defaultServiceAccount: 'flux',
  });
  const record = (
    over: Partial<SimulatedObject> & { name: string },
  ): SimulatedObject => ({
    kind: 'Kustomization',
    namespace: 'team-a',
    placement: { status: 'ok', controllers: [main] },
    state: 'ready',
    suspended: false,
    steadyState: 'ready',
    tenant: 'a',
    serviceAccountName: 'a',
    service: null,
    sources: [],
    dependsOn: [],
    generated: true,
    ...over,
  });
  const truthOf = (
    records: SimulatedObject[],
    now = Date.parse('2026-11-30T12:00:00Z'),
    controllers: ControllerSpec[] = [],
  ) =>
    clusterTruth(
      'c',
      new Map(records.map(r => [recordKey(r.kind, r.namespace, r.name), r])),
      now,
      controllers,
    );
  const findingsOf = (records: SimulatedObject[], now?: number) =>
    truthOf(records, now)
      .findings.map(f => `${f.type} ${f.name}`)
      .sort();
  const dep = (name: string) => ({
    kind: 'Kustomization',
    namespace: 'team-a',
    name,
  });

  it('finds every member of a dependsOn cycle, and a self-dependency, but not a chain', () => {
    expect(
      findingsOf([
        record({ name: 'a', dependsOn: [dep('b')] }),
        record({ name: 'b', dependsOn: [dep('c')] }),
        record({ name: 'c', dependsOn: [dep('a')] }),
        record({ name: 'd', dependsOn: [dep('a')] }),
        record({ name: 'self', dependsOn: [dep('self')] }),
      ]),
    ).toEqual([
      'dependency-cycle a',
      'dependency-cycle b',
      'dependency-cycle c',
      'dependency-cycle self',
    ]);
  });

  it('finds missing dependencies and sources, cross-shard and cross-tenant references', () => {
    const source = record({
      kind: 'GitRepository',
      name: 'repo',
      tenant: 'b',
      serviceAccountName: null,
      placement: {
        status: 'ok',
        controllers: [
          controller({
            name: 'source-controller-shard1',
            component: 'source-controller',
            shard: 'shard1',
          }),
        ],
      },
    });
    expect(
      findingsOf([
        source,
        record({
          name: 'uses-repo',
          sources: [
            { kind: 'GitRepository', namespace: 'team-a', name: 'repo' },
          ],
        }),
        record({
          name: 'lost',
          sources: [
            { kind: 'GitRepository', namespace: 'team-a', name: 'gone' },
          ],
          dependsOn: [dep('nowhere')],
        }),
      ]),
    ).toEqual([
      'cross-shard-reference uses-repo',
      'cross-tenant-reference uses-repo',
      'missing-dependency lost',
      'missing-source lost',
    ]);
  });

  it('gives contested objects the weakest boundary of their candidates, and orphans none', () => {
    const { objects } = truthOf([
      record({
        name: 'contested',
        serviceAccountName: null,
        placement: { status: 'contested', controllers: [locked, main] },
      }),
      record({
        name: 'orphan',
        serviceAccountName: null,
        placement: { status: 'orphan', controllers: [] },
      }),
      record({
        name: 'locked',
        serviceAccountName: null,
        placement: { status: 'ok', controllers: [locked] },
      }),
    ]);
    const by = Object.fromEntries(objects.map(o => [o.name, o]));
    expect([
      by.contested.boundary,
      by.contested.serviceAccount,
      by.contested.instance,
    ]).toEqual(['none', null, null]);
    expect([by.orphan.boundary, by.orphan.shard]).toEqual(['none', null]);
    expect([
      by.locked.boundary,
      by.locked.serviceAccount,
      by.locked.shard,
    ]).toEqual(['enforced', 'flux', 'shard1']);
  });

  it('locks a source down when every lockable controller of its instance runs with --no-cross-namespace-refs', () => {
    const source = controller({
      name: 'source-controller',
      component: 'source-controller',
    });
    const helm = controller({
      name: 'helm-controller',
      component: 'helm-controller',
      noCrossNamespaceRefs: true,
    });
    const repo = record({
      name: 'repo',
      kind: 'GitRepository',
      serviceAccountName: null,
      placement: { status: 'ok', controllers: [source] },
    });
    const boundaryWith = (controllers: ControllerSpec[]) =>
      truthOf([repo], undefined, controllers).objects[0].boundary;

    expect(
      boundaryWith([source, helm, { ...main, noCrossNamespaceRefs: true }]),
    ).toBe('enforced');
    // one lockable controller without the flag leaves the instance open
    expect(boundaryWith([source, helm, main])).toBe('none');
    // controllers of another instance do not count
    expect(boundaryWith([source, { ...helm, instance: 'other' }])).toBe('none');
  });

  it('reports a reconcile request only when older than 5 minutes, not suspended and not handled', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(
      findingsOf(
        [
          record({ name: 'fresh', requestedAt: '2026-11-30T11:56:00Z' }),
          record({ name: 'old', requestedAt: '2026-11-30T11:54:00Z' }),
          record({
            name: 'handled',
            requestedAt: '2026-11-30T10:00:00Z',
            lastHandledReconcileAt: '2026-11-30T10:00:00Z',
          }),
          record({
            name: 'suspended',
            requestedAt: '2026-11-30T10:00:00Z',
            suspended: true,
            state: 'suspended',
          }),
          record({ name: 'not-a-time', requestedAt: 'now please' }),
        ],
        now,
      ),
    ).toEqual([
      'reconcile-not-handled not-a-time',
      'reconcile-not-handled old',
    ]);
  });

  it('owns Flux Operator kinds by the instance of their namespace, never orphan', () => {
    const { objects, findings } = truthOf([
      record({
        kind: 'FluxInstance',
        namespace: 'flux-system',
        name: 'flux',
        tenant: null,
        serviceAccountName: null,
        placement: {
          status: 'ok',
          controllers: [],
          operatorInstance: 'flux-system',
        },
      }),
      record({
        kind: 'ResourceSet',
        namespace: 'apps',
        name: 'previews',
        tenant: null,
        serviceAccountName: null,
        placement: { status: 'ok', controllers: [], operatorInstance: null },
      }),
    ]);
    expect(objects.map(o => [o.name, o.owner, o.instance, o.shard])).toEqual([
      ['flux', 'ok', 'flux-system', 'main'],
      ['previews', 'ok', null, 'main'],
    ]);
    expect(findings).toEqual([]);
  });
});
