import { analyseCluster } from './analysis';
import {
  normalizeCrd,
  writtenApiVersion,
  type FluxCrdRecord,
} from './apiVersionFacts';
import { controllerFromDeployment } from './controller';
import { fluxDeployment } from './fixtures/deployments';
import { readyKustomization } from './fixtures/fluxObjects';
import { removedApiVersions, servedApiVersions } from './fluxApiVersions';
import { fleetVersionView } from './fleetVersions';
import { normalizeFluxObject } from './normalize';
import type { FluxController } from './types';
import {
  deprecatedApiFinding,
  deprecatedApiUse,
  upgradeBlockedFinding,
} from './upgradeReadiness';

function crd(
  plural: string,
  group: string,
  kind: string,
  storedVersions: string[],
): unknown {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, plural },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
    status: { storedVersions },
  };
}

function crdRecord(raw: unknown): FluxCrdRecord {
  const { crd: record, error } = normalizeCrd('prod-eu', raw);
  if (!record) throw new Error(error ?? 'not a Flux CRD');
  return record;
}

const KUSTOMIZATIONS_OLD = crdRecord(
  crd('kustomizations', 'kustomize.toolkit.fluxcd.io', 'Kustomization', [
    'v1beta2',
    'v1',
  ]),
);
const ALERTS_OLD = crdRecord(
  crd('alerts', 'notification.toolkit.fluxcd.io', 'Alert', [
    'v1beta2',
    'v1beta3',
  ]),
);
const GIT_CURRENT = crdRecord(
  crd('gitrepositories', 'source.toolkit.fluxcd.io', 'GitRepository', ['v1']),
);

describe('the API versions of each Flux minor', () => {
  it.each<[string, number, string[]]>([
    ['Kustomization', 8, ['v1beta2']],
    ['HelmRelease', 8, ['v2beta2']],
    ['HelmRelease', 7, ['v2beta1']],
    ['Alert', 9, ['v1beta2']],
    ['ImagePolicy', 9, ['v1beta2']],
    ['ImageUpdateAutomation', 9, ['v1beta2']],
    ['GitRepository', 9, []],
  ])('%s: Flux 2.%i removes %j', (kind, minor, removed) => {
    expect(removedApiVersions(kind as any, minor)).toEqual(removed);
  });

  it('serves the preferred version first', () => {
    expect(servedApiVersions('HelmRelease', 6)).toEqual([
      'v2',
      'v2beta2',
      'v2beta1',
    ]);
    expect(servedApiVersions('ImageRepository', 8)).toEqual(['v1', 'v1beta2']);
    expect(servedApiVersions('OCIRepository', 5)).toEqual(['v1beta2']);
  });
});

describe('normalizeCrd and writtenApiVersion', () => {
  it('reads the stored versions of a Flux CRD and ignores other groups', () => {
    expect(KUSTOMIZATIONS_OLD).toMatchObject({
      name: 'kustomizations.kustomize.toolkit.fluxcd.io',
      kind: 'Kustomization',
      storedVersions: ['v1beta2', 'v1'],
      servedVersions: ['v1'],
    });
    expect(
      normalizeCrd(
        'prod-eu',
        crd('certificates', 'cert-manager.io', 'Certificate', ['v1']),
      ),
    ).toEqual({});
    expect(normalizeCrd('prod-eu', 'nonsense').error).toContain('prod-eu');
  });

  it('takes the newest managedFields entry that wrote the object, not its status', () => {
    expect(
      writtenApiVersion({
        metadata: {
          managedFields: [
            {
              manager: 'kubectl',
              apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
              time: '2026-01-01T00:00:00Z',
            },
            {
              manager: 'kustomize-controller',
              apiVersion: 'kustomize.toolkit.fluxcd.io/v1beta2',
              time: '2026-06-01T00:00:00Z',
            },
            {
              manager: 'gotk-kustomize-controller',
              apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
              subresource: 'status',
              time: '2026-11-01T00:00:00Z',
            },
          ],
        },
      }),
    ).toBe('v1beta2');
    expect(writtenApiVersion({ metadata: {} })).toBeUndefined();
    expect(
      writtenApiVersion({ metadata: { managedFields: 'odd' } }),
    ).toBeUndefined();
  });
});

describe('upgrade-blocked', () => {
  it('blocks Flux 2.7 → 2.8 while a CRD stores v1beta2, with the flux migrate command', () => {
    const finding = upgradeBlockedFinding('prod-eu', 'flux-system', 'v2.7.5', [
      KUSTOMIZATIONS_OLD,
      GIT_CURRENT,
    ])!;
    expect(finding).toMatchObject({
      type: 'upgrade-blocked',
      severity: 'error',
      instance: { cluster: 'prod-eu', instance: 'flux-system' },
    });
    expect(finding.message).toContain('cannot be upgraded to Flux 2.8');
    expect(finding.message).toContain(
      'kustomizations.kustomize.toolkit.fluxcd.io stores v1beta2 (removed in Flux 2.8)',
    );
    expect(finding.message).toContain('`flux migrate`');
  });

  it.each<[string, string, FluxCrdRecord[], boolean]>([
    [
      'notification v1beta2 does not block 2.7 → 2.8',
      'v2.7.5',
      [ALERTS_OLD],
      false,
    ],
    ['notification v1beta2 blocks 2.8 → 2.9', 'v2.8.3', [ALERTS_OLD], true],
    ['current stored versions block nothing', 'v2.7.5', [GIT_CURRENT], false],
    [
      'nothing to upgrade to from the latest minor',
      'v2.9.4',
      [KUSTOMIZATIONS_OLD],
      false,
    ],
    [
      'an upgrade done without migrating still shows',
      'v2.8.3',
      [KUSTOMIZATIONS_OLD],
      true,
    ],
  ])('%s', (_, version, crds, blocked) => {
    expect(
      upgradeBlockedFinding('prod-eu', 'flux-system', version, crds) !==
        undefined,
    ).toBe(blocked);
  });
});

describe('deprecated-api', () => {
  const ref = {
    cluster: 'prod-eu',
    namespace: 'apps',
    kind: 'HelmRelease' as const,
    name: 'podinfo',
  };

  it('names the removed version and the version to write instead', () => {
    const finding = deprecatedApiFinding(ref, 'v2beta1')!;
    expect(finding.type).toBe('deprecated-api');
    expect(finding.message).toContain(
      'last written as helm.toolkit.fluxcd.io/v2beta1 (metadata.managedFields), which Flux 2.7 removed: ' +
        'write it as helm.toolkit.fluxcd.io/v2 instead',
    );
  });

  it.each<[string, string | undefined, object | undefined]>([
    [
      'Alert',
      'v1beta2',
      { written: 'v1beta2', writeInstead: 'v1beta3', removedIn: 9 },
    ],
    ['Kustomization', 'v1', undefined],
    ['Kustomization', undefined, undefined],
    ['Kustomization', 'v7', undefined],
  ])('%s written at %s', (kind, written, expected) => {
    expect(deprecatedApiUse(kind as any, written)).toEqual(expected);
  });
});

function controllers(
  version: string,
  namespace = 'flux-system',
): FluxController[] {
  return ['source-controller', 'kustomize-controller'].map(name => {
    const { controller } = controllerFromDeployment(
      'prod-eu',
      fluxDeployment({
        name,
        namespace,
        labels: { 'app.kubernetes.io/version': version },
      }),
    );
    return controller!;
  });
}

describe('the cluster analysis and the fleet view', () => {
  it('reports upgrade-blocked for the instance and deprecated-api for an object written at v1beta2', () => {
    const raw = readyKustomization() as any;
    raw.metadata.managedFields = [
      {
        manager: 'kustomize-controller',
        operation: 'Apply',
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1beta2',
        time: '2026-06-01T00:00:00Z',
      },
    ];
    const { record } = normalizeFluxObject('prod-eu', raw);
    expect(record?.writtenApiVersion).toBe('v1beta2');
    const analysis = analyseCluster({
      cluster: 'prod-eu',
      controllers: controllers('v2.7.5'),
      crds: [KUSTOMIZATIONS_OLD],
      objects: [record!],
      now: Date.parse('2026-12-01T00:00:00Z'),
    });
    expect(analysis.findings.map(f => f.type).sort()).toEqual(
      expect.arrayContaining(['deprecated-api', 'upgrade-blocked']),
    );
    expect(
      analysis.objects.get(record!.key)!.findings.map(f => f.type),
    ).toContain('deprecated-api');
    expect(analysis.instances[0].version).toBe('v2.7.5');
  });

  it('shows which clusters run which release, how far behind and what blocks them', () => {
    const view = fleetVersionView([
      {
        cluster: 'prod-eu',
        controllers: controllers('v2.7.5'),
        crds: [KUSTOMIZATIONS_OLD],
      },
      {
        cluster: 'prod-us',
        controllers: controllers('v2.9.4'),
        crds: [GIT_CURRENT],
      },
    ]);
    expect(view.latest).toBe('v2.9.4');
    expect(view.clustersByVersion).toEqual({
      'v2.7.5': ['prod-eu'],
      'v2.9.4': ['prod-us'],
    });
    expect(view.instances[0]).toMatchObject({
      cluster: 'prod-eu',
      minorsBehind: 2,
      nextMinor: '2.8',
      blockers: [{ version: 'v1beta2', removedIn: 8 }],
    });
    expect(view.instances[1]).toMatchObject({ minorsBehind: 0, blockers: [] });
    expect(view.instances[1].nextMinor).toBeUndefined();
  });
});
