import { parse } from 'yaml';
import { kustomizationObject } from '../fixtures/objectBuilders';
import { recordOf, sourceObject } from '../fixtures/capacity';
import { BOOTSTRAP, KEY, planFor as plan } from '../fixtures/shardingScenario';

describe('the changes of a sharding plan', () => {
  it('labels a chart-template HelmRelease for its generated HelmChart instead of the HelmChart itself', () => {
    const p = plan({});
    const charts = p.labelChanges.filter(c => c.object.kind === 'HelmChart');
    expect(charts).toEqual([]);
    expect(p.commands).toContain(
      `kubectl patch -n team-d helmreleases.helm.toolkit.fluxcd.io redis --type=merge -p '{"spec":{"chart":{"metadata":{"labels":{"sharding.fluxcd.io/key":"shard1"}}}}}'`,
    );
    expect(p.kustomizePatch).toContain(
      '              sharding.fluxcd.io/key: "shard1"',
    );
    expect(p.notes).toContain(
      "1 generated HelmChart takes the shard label from its HelmRelease's spec.chart.metadata.labels, which the plan sets.",
    );
  });

  it('gives a bootstrap install the shard directory of Flux’s sharding guide and the main controllers’ selector', () => {
    const p = plan({ shards: 2 });
    expect(p.controllers?.kind).toBe('bootstrap');
    const files =
      p.controllers?.kind === 'bootstrap' ? p.controllers.files : [];
    expect(files.map(f => f.path)).toEqual([
      'flux-system/kustomization.yaml',
      'flux-system/shard1/kustomization.yaml',
      'flux-system/shard2/kustomization.yaml',
    ]);
    expect(files[0].content).toContain(
      'value: --watch-label-selector=!sharding.fluxcd.io/key',
    );
    expect(files[0].content).toContain('  - shard2\n');
    expect(files[1].content).toContain('nameSuffix: "-shard1"');
    expect(files[1].content).toContain('sharding.fluxcd.io/role: "shard"');
    expect(files[1].content).toContain(
      'value: --watch-label-selector=sharding.fluxcd.io/key=shard1',
    );
    expect(files[1].content).toContain(
      'value: --storage-adv-addr=source-controller-shard1.$(RUNTIME_NAMESPACE).svc.cluster.local.',
    );
    expect(p.commands[0]).toMatch(/^# First commit the files/);
    expect(p.commands[1]).toBe(
      'kubectl wait -n flux-system --for=condition=Available --timeout=5m deployment/source-controller-shard1 deployment/kustomize-controller-shard1 deployment/helm-controller-shard1 deployment/source-controller-shard2 deployment/kustomize-controller-shard2 deployment/helm-controller-shard2',
    );
    expect(p.commands).toContain(
      'kubectl label --overwrite -n team-a gitrepositories.source.toolkit.fluxcd.io apps sharding.fluxcd.io/key=shard1',
    );
    expect(p.commands).toContain(
      `kubectl label --overwrite -n team-a kustomizations.kustomize.toolkit.fluxcd.io ${Array.from(
        { length: 12 },
        (_, i) => `app-${i}`,
      )
        .sort()
        .join(' ')} sharding.fluxcd.io/key=shard1`,
    );
  });

  it('gives an operator-managed instance a FluxInstance patch, applied before the labels', () => {
    const p = plan({
      operatorManaged: true,
      controllers: BOOTSTRAP.map(c => ({ ...c, operatorManaged: true })),
      shards: 2,
    });
    expect(p.controllers).toEqual({
      kind: 'flux-instance',
      patch: [
        'apiVersion: fluxcd.controlplane.io/v1',
        'kind: FluxInstance',
        'metadata:',
        '  name: flux',
        '  namespace: flux-system',
        'spec:',
        '  sharding:',
        '    key: sharding.fluxcd.io/key',
        '    shards:',
        '      - "shard1"',
        '      - "shard2"',
        '',
      ].join('\n'),
    });
    expect(p.commands[0]).toBe(
      `kubectl patch -n flux-system fluxinstances.fluxcd.controlplane.io flux --type=merge -p '{"spec":{"sharding":{"key":"sharding.fluxcd.io/key","shards":["shard1","shard2"]}}}'`,
    );
  });

  it('takes objects off a shard no controller serves back to main, escaping names in the patch target', () => {
    // shard9 has no controllers: its objects are orphans today; with no shard needed they go back to main.
    const orphaned = [
      recordOf(
        sourceObject('GitRepository', 'team-z', 'apps', {
          labels: { [KEY]: 'shard9' },
        }),
      ),
      recordOf(
        kustomizationObject({
          namespace: 'team-z',
          name: 'api.v2',
          labels: { [KEY]: 'shard9' },
          sourceRef: { kind: 'GitRepository', name: 'apps' },
        }),
      ),
    ];
    const p = plan({ objects: orphaned });
    expect(p.shards.map(s => s.name)).toEqual(['main']);
    expect(p.labelChanges.map(c => [c.object.name, c.from, c.to])).toEqual([
      ['apps', 'shard9', 'main'],
      ['api.v2', 'shard9', 'main'],
    ]);
    expect(p.commands).toEqual([
      'kubectl label -n team-z gitrepositories.source.toolkit.fluxcd.io apps sharding.fluxcd.io/key-',
      'kubectl label -n team-z kustomizations.kustomize.toolkit.fluxcd.io api.v2 sharding.fluxcd.io/key-',
    ]);
    expect(p.kustomizePatch).toContain('      name: ^(api\\.v2)$\n');
    expect(p.kustomizePatch).toContain(
      '          sharding.fluxcd.io/key: null\n',
    );
  });
});

describe('the YAML a plan gives to download', () => {
  it('parses, and each patch says the label it sets', () => {
    const p = plan({ shards: 2 });
    const file = parse(p.kustomizePatch) as {
      patches: Array<{ target: Record<string, string>; patch: string }>;
    };
    expect(file.patches.length).toBeGreaterThan(0);
    for (const { target, patch } of file.patches) {
      const body = parse(patch) as {
        kind: string;
        metadata: { labels: Record<string, string> };
      };
      expect(body.kind).toBe(target.kind);
      expect(body.metadata.labels[KEY]).toMatch(/^shard[12]$/);
    }
    const files =
      p.controllers?.kind === 'bootstrap' ? p.controllers.files : [];
    for (const f of files) {
      const k = parse(f.content) as {
        kind: string;
        resources: string[];
        patches?: Array<{ patch: string }>;
      };
      expect(k.kind).toBe('Kustomization');
      for (const patch of k.patches ?? [])
        expect(() => parse(patch.patch)).not.toThrow();
    }
    const shard1 = parse(files[1].content) as {
      patches: Array<{
        target: { kind: string; name?: string };
        patch: string;
      }>;
    };
    const selector = shard1.patches.find(
      x =>
        x.target.kind === 'Deployment' &&
        x.target.name ===
          '(source-controller|kustomize-controller|helm-controller)',
    );
    expect(parse(selector!.patch)).toEqual([
      {
        op: 'add',
        path: '/spec/template/spec/containers/0/args/-',
        value: '--watch-label-selector=sharding.fluxcd.io/key=shard1',
      },
    ]);
  });

  it('gives the operator a FluxInstance patch that parses', () => {
    const p = plan({
      operatorManaged: true,
      controllers: BOOTSTRAP.map(c => ({ ...c, operatorManaged: true })),
      shards: 1,
    });
    const patch =
      p.controllers?.kind === 'flux-instance' ? p.controllers.patch : '';
    expect(parse(patch)).toEqual({
      apiVersion: 'fluxcd.controlplane.io/v1',
      kind: 'FluxInstance',
      metadata: { name: 'flux', namespace: 'flux-system' },
      spec: { sharding: { key: 'sharding.fluxcd.io/key', shards: ['shard1'] } },
    });
  });
});
