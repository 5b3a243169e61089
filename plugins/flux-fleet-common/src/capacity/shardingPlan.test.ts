import { kustomizationObject } from '../fixtures/objectBuilders';
import { measurementOf, recordOf, sameObjects } from '../fixtures/capacity';
import {
  BOOTSTRAP,
  freshObjects,
  helmAndImages,
  KEY,
  planFor as plan,
  SHARDED,
  team,
} from '../fixtures/shardingScenario';
import { assessController } from './assess';

/** The shard each object of a plan ends on. */
function shardsOfObjects(p: ReturnType<typeof plan>) {
  const result = new Map<string, string>();
  for (const g of p.groups) {
    for (const o of g.objects)
      result.set(`${o.namespace}/${o.kind}/${o.name}`, g.to);
  }
  return result;
}

describe('planSharding', () => {
  it('plans the fewest shards that keep every shard under 70 % and never splits a group (fresh bootstrap install)', () => {
    const p = plan({});
    // 30 Kustomizations × 0.1 busy = 3 of 4 workers: 75 % on main alone; one shard more is enough.
    expect(p.shards.map(s => s.name)).toEqual(['main', 'shard1']);
    expect(p.shards.map(s => Math.round(s.utilisation * 100))).toEqual([
      45, 30,
    ]);
    expect(p.source).toBe('estimate');
    expect(p.estimateReason).toMatch(/estimated from intervals/);
    const where = shardsOfObjects(p);
    for (const g of p.groups) {
      expect(
        new Set(
          g.objects.map(o => where.get(`${o.namespace}/${o.kind}/${o.name}`)),
        ).size,
      ).toBe(1);
    }
    expect(where.get('team-b/Kustomization/app-0')).toBe(
      where.get('team-c/Kustomization/app-0'),
    );
    expect(p.summary).toBe(
      'Shard into main, shard1: move 3 of 5 groups (19 objects, 18 labels to change); the busiest shard, main, would be 45 % busy (estimated).',
    );
  });

  it('needs no sharding when main holds everything under 70 %', () => {
    const p = plan({ objects: [...team('team-a', 12), ...helmAndImages()] });
    expect(p.shards.map(s => s.name)).toEqual(['main']);
    expect(p.labelChanges).toEqual([]);
    expect(p.controllers).toBeUndefined();
    expect(p.commands).toEqual([]);
    expect(p.kustomizePatch).toContain('patches: []');
    expect(p.summary).toBe(
      'No sharding needed: main would be 30 % busy (estimated) at its busiest controller.',
    );
  });

  it('moves as few groups as it can when shards exist: only the largest group off the shard over 70 %', () => {
    // shard1: team-a 12 + team-f 20 = 3.2 busy of 4 (80 %); shard2: team-b 10 (25 %); main: team-c 8 (20 %).
    const p = plan({
      controllers: SHARDED,
      objects: [
        ...team('team-a', 12, 'shard1'),
        ...team('team-f', 20, 'shard1'),
        ...team('team-b', 10, 'shard2'),
        ...team('team-c', 8),
      ],
    });
    expect(p.shards.map(s => [s.name, s.existing])).toEqual([
      ['main', true],
      ['shard1', true],
      ['shard2', true],
      ['shard3', false],
    ]);
    expect(
      p.groups.filter(g => g.moved).map(g => [g.name, g.from, g.to]),
    ).toEqual([['GitRepository team-f/apps', 'shard1', 'shard3']]);
    expect(p.movedGroups).toBe(1);
    expect(p.labelChanges).toHaveLength(21);
    expect(p.controllers?.kind).toBe('bootstrap');
    const files =
      p.controllers?.kind === 'bootstrap' ? p.controllers.files : [];
    // The main controllers of the sharded install run with a selector already.
    expect(files[0].content).not.toContain('!sharding.fluxcd.io/key');
    expect(files.map(f => f.path)).toEqual([
      'flux-system/kustomization.yaml',
      'flux-system/shard3/kustomization.yaml',
    ]);
  });

  it("never takes a tenant's own controller (selected by another label) for a shard of the shard key", () => {
    const kustomize = SHARDED.find(c => c.component === 'kustomize-controller' && c.shard === 'main')!;
    const tenantController = {
      ...kustomize,
      name: 'kustomize-controller-payments',
      shard: 'payments',
      selector: 'toolkit.fluxcd.io/tenant=payments',
    };
    const p = plan({
      controllers: [...SHARDED, tenantController],
      objects: [...team('team-a', 12, 'shard1'), ...team('team-f', 20, 'shard1'), ...team('team-c', 8)],
    });
    expect(p.shards.map(s => s.name)).not.toContain('payments');
    expect(p.labelChanges.filter(c => c.to === 'payments')).toEqual([]);
  });

  it('brings a group split across shards together on the shard most of its load is on', () => {
    const objects = [
      ...team('team-a', 12, 'shard1'),
      ...team('team-b', 4, 'shard2'),
    ];
    const strayIndex = objects.findIndex(
      o => o.namespace === 'team-a' && o.name === 'app-3',
    );
    objects[strayIndex] = recordOf(
      kustomizationObject({
        namespace: 'team-a',
        name: 'app-3',
        labels: { [KEY]: 'shard2' },
        interval: '1m',
        lastReconciledDuration: '6s',
        sourceRef: { kind: 'GitRepository', name: 'apps' },
      }),
    );
    const p = plan({ controllers: SHARDED, objects });
    expect(p.labelChanges).toEqual([
      {
        object: {
          cluster: 'prod-eu',
          namespace: 'team-a',
          kind: 'Kustomization',
          name: 'app-3',
        },
        from: 'shard2',
        to: 'shard1',
      },
    ]);
    expect(p.controllers).toBeUndefined();
    expect(p.commands).toEqual([
      'kubectl label --overwrite -n team-a kustomizations.kustomize.toolkit.fluxcd.io app-3 sharding.fluxcd.io/key=shard1',
    ]);
  });

  it('names a group bigger than a shard, with the advice that fits', () => {
    const p = plan({
      objects: [
        ...team('team-big', 40),
        ...team('team-huge', 200),
        ...team('team-a', 5),
      ],
      shards: 2,
    });
    const big = p.groups.find(g => g.name === 'GitRepository team-big/apps');
    const huge = p.groups.find(g => g.name === 'GitRepository team-huge/apps');
    expect(big?.oversize).toBe(
      'alone it keeps kustomize-controller on shard1 100 % busy (41 objects that must share a shard): raise --concurrent of kustomize-controller on shard1 to 10',
    );
    expect(huge?.oversize).toMatch(
      /^alone it keeps kustomize-controller on main 500 % busy \(201 objects that must share a shard\): split it/,
    );
    expect(p.summary).toMatch(
      /; 2 groups are bigger than one shard can hold\.$/,
    );
    expect(p.notes.filter(n => n.includes('alone it keeps'))).toHaveLength(2);
  });

  it('scales the estimate by measured busy workers', () => {
    // Measured: main's kustomize-controller has 1.5 busy workers where the estimate says 3 (half).
    const base = plan({});
    const p = plan({
      capacities: [
        assessController({
          controller: BOOTSTRAP.find(c => c.name === 'kustomize-controller')!,
          objects: sameObjects(30, 'Kustomization', '1m', 6000),
          measurement: measurementOf(
            'kustomize-controller',
            'kustomize-controller',
            {
              activeWorkers: 1.5,
            },
          ),
        }),
      ],
    });
    expect(base.shards).toHaveLength(2);
    expect(p.shards.map(s => s.name)).toEqual(['main']);
    expect(p.shards[0].utilisation).toBeCloseTo(0.375);
    // source- and helm-controller were not measured: the plan says so.
    expect(p.source).toBe('estimate');
    expect(p.estimateReason).toBe(
      'loads are estimated from intervals (rules §9) for helm-controller on main (no metrics are collected for it), source-controller on main (no metrics are collected for it)',
    );
  });

  it('gives the same plan whatever the order of its input', () => {
    const objects = freshObjects();
    const a = plan({ objects, shards: 2 });
    const b = plan({
      objects: [...objects].reverse(),
      controllers: [...BOOTSTRAP].reverse(),
      shards: 2,
    });
    expect(b).toEqual(a);
  });

  it('leaves groups that load no sharded controller where they are', () => {
    const p = plan({ shards: 2 });
    const images = p.groups.find(g => g.name === 'ImageRepository team-a/api');
    expect(images).toMatchObject({ from: 'main', to: 'main', moved: false });
  });
});

describe('planSharding at its limits', () => {
  it('stops at 32 shards and says what else it takes', () => {
    const objects = Array.from({ length: 200 }, (_, i) =>
      team(`team-${i}`, 10),
    ).flat();
    const p = plan({ objects });
    // 2,000 Kustomizations × 0.1 = 200 busy workers: 33 targets of 4 workers hold 92 under 70 %.
    expect(p.shards).toHaveLength(33);
    expect(p.summary).toMatch(
      /^Shard into main, shard1, shard2, …, shard32 \(33 in all\): move /,
    );
    expect(p.notes[p.notes.length - 1]).toMatch(
      /^Even 32 shards leave \S+ 1\d\d % busy: raise --concurrent of the shards' controllers too/,
    );
  });
});

describe('planSharding sources', () => {
  it('says metrics when every controller its objects load was measured', () => {
    const objects = team('team-a', 12);
    const capacityOf = (
      name: string,
      kind: 'Kustomization' | 'GitRepository',
      n: number,
      busy: number,
    ) =>
      assessController({
        controller: BOOTSTRAP.find(c => c.name === name)!,
        objects: sameObjects(
          n,
          kind,
          '1m',
          kind === 'Kustomization' ? 6000 : 2000,
        ),
        measurement: measurementOf(
          name,
          BOOTSTRAP.find(c => c.name === name)!.component,
          {
            activeWorkers: busy,
          },
        ),
      });
    const p = plan({
      objects,
      capacities: [
        capacityOf('kustomize-controller', 'Kustomization', 12, 2.4),
        capacityOf('source-controller', 'GitRepository', 1, 0.05),
      ],
    });
    expect(p.source).toBe('metrics');
    expect(p.estimateReason).toBeUndefined();
    // Measured 2.4 busy workers where the estimate says 1.2: 60 % of 4, still no shard needed.
    expect(p.shards[0].utilisation).toBeCloseTo(0.6);
    expect(p.summary).toBe(
      'No sharding needed: main would be 60 % busy at its busiest controller.',
    );
  });
});
