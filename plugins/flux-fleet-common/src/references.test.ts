import {
  alert,
  gitRepository,
  helmChart,
  imagePolicy,
  imageUpdateAutomation,
  readyHelmRelease,
  readyKustomization,
  v1beta2ImagePolicy,
  v2beta1HelmRelease,
} from './fixtures/fluxObjects';
import { normalizeFluxObject } from './normalize';
import type { FluxObjectRecord } from './record';
import {
  dependencyReferencesOf,
  referenceKey,
  referencesOf,
  sourceReferenceOf,
} from './references';

function recordOf(raw: unknown): FluxObjectRecord {
  const result = normalizeFluxObject('prod-eu', raw);
  if (!result.record) throw new Error(result.error);
  return result.record;
}

describe('referencesOf', () => {
  it.each<[string, unknown, object[]]>([
    [
      'Kustomization: its GitRepository in its own namespace, then a dependency in another',
      readyKustomization(),
      [
        {
          role: 'source',
          field: 'spec.sourceRef',
          kind: 'GitRepository',
          namespace: 'team-payments',
          name: 'payments',
        },
        {
          role: 'dependency',
          field: 'spec.dependsOn[0]',
          kind: 'Kustomization',
          namespace: 'flux-system',
          name: 'platform-crds',
        },
      ],
    ],
    [
      'HelmRelease with chartRef: the OCIRepository, and a HelmRelease dependency in its own namespace',
      readyHelmRelease(),
      [
        {
          role: 'source',
          field: 'spec.chartRef',
          kind: 'OCIRepository',
          namespace: 'team-shop',
          name: 'checkout-chart',
        },
        {
          role: 'dependency',
          field: 'spec.dependsOn[0]',
          kind: 'HelmRelease',
          namespace: 'team-shop',
          name: 'redis',
        },
      ],
    ],
    [
      'HelmRelease with a chart template: the HelmRepository of the template',
      v2beta1HelmRelease(),
      [
        {
          role: 'source',
          field: 'spec.chart.spec.sourceRef',
          kind: 'HelmRepository',
          namespace: 'flux-system',
          name: 'ingress-nginx',
        },
      ],
    ],
    [
      'HelmChart: its source in its own namespace',
      helmChart(),
      [
        {
          role: 'source',
          field: 'spec.sourceRef',
          kind: 'HelmRepository',
          namespace: 'flux-system',
          name: 'ingress-nginx',
        },
      ],
    ],
    [
      'ImagePolicy v1: its ImageRepository',
      imagePolicy(),
      [
        {
          role: 'source',
          field: 'spec.imageRepositoryRef',
          kind: 'ImageRepository',
          namespace: 'team-shop',
          name: 'checkout',
        },
      ],
    ],
    [
      'ImagePolicy v1beta2: an ImageRepository in another namespace',
      v1beta2ImagePolicy(),
      [
        {
          role: 'source',
          field: 'spec.imageRepositoryRef',
          kind: 'ImageRepository',
          namespace: 'flux-system',
          name: 'podinfo',
        },
      ],
    ],
    [
      'ImageUpdateAutomation: its GitRepository',
      imageUpdateAutomation(),
      [
        {
          role: 'source',
          field: 'spec.sourceRef',
          kind: 'GitRepository',
          namespace: 'team-shop',
          name: 'shop-deploy',
        },
      ],
    ],
    [
      'Alert: its Provider',
      alert(),
      [
        {
          role: 'source',
          field: 'spec.providerRef',
          kind: 'Provider',
          namespace: 'flux-system',
          name: 'slack',
        },
      ],
    ],
    ['GitRepository: nothing', gitRepository(), []],
  ])('%s', (_, raw, expected) => {
    expect(referencesOf(recordOf(raw))).toEqual(expected);
  });

  it('gives the source and the dependencies separately', () => {
    const record = recordOf(readyKustomization());
    expect(sourceReferenceOf(record)).toEqual({
      kind: 'GitRepository',
      namespace: 'team-payments',
      name: 'payments',
    });
    expect(dependencyReferencesOf(record)).toEqual([
      {
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'platform-crds',
      },
    ]);
    expect(sourceReferenceOf(recordOf(gitRepository()))).toBeUndefined();
  });

  it("keys a reference in the referring object's cluster", () => {
    expect(
      referenceKey('prod-eu', {
        kind: 'GitRepository',
        namespace: 'flux-system',
        name: 'flux-system',
      }),
    ).toBe('prod-eu/flux-system/GitRepository/flux-system');
  });
});
