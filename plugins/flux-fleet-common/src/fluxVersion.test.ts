import { controllerFromDeployment } from './controller';
import { fluxDeployment } from './fixtures/deployments';
import { FLUX_RELEASE_TABLE, fluxReleaseInfo } from './fluxReleases';
import {
  clusterFluxVersions,
  deriveInstanceFluxVersion,
  mixedVersionsFinding,
  operatorFluxVersion,
  releasesBehind,
} from './fluxVersion';
import type { FluxController } from './types';
import type { ControllerComponent } from './vocabulary';

const PLAIN: ControllerComponent[] = [
  'source-controller',
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
  'image-reflector-controller',
  'image-automation-controller',
];

/**
 * The controllers of one instance as a Flux release installs them. `label` false: a plain `install.yaml` or Helm
 * chart without the version label; `tags` overrides single image versions.
 */
function install(
  release: string,
  options: {
    label?: boolean;
    operator?: boolean;
    tags?: Partial<Record<ControllerComponent, string>>;
    namespace?: string;
  } = {},
): FluxController[] {
  const info = fluxReleaseInfo(release)!;
  return PLAIN.map(component => {
    const deployment = fluxDeployment({
      name: component,
      namespace: options.namespace,
      operatorManaged: options.operator,
      image: `ghcr.io/fluxcd/${component}:${
        options.tags?.[component] ?? info.controllers[component]
      }`,
      labels: { 'app.kubernetes.io/version': release },
    });
    if (options.label === false) {
      delete deployment.metadata!.labels!['app.kubernetes.io/version'];
    }
    const { controller, reason } = controllerFromDeployment(
      'prod-eu',
      deployment,
    );
    if (!controller) throw new Error(reason);
    return controller;
  });
}

describe('deriveInstanceFluxVersion', () => {
  it.each<[string, FluxController[], string | undefined, object]>([
    [
      'operator-managed: the FluxInstance revision wins',
      install('v2.8.3', { operator: true }),
      'v2.8.3@sha256:4cc5babdb1279ad0177bf513292deadbfa3f7b7c3da0be7fa53b39ab434f7219',
      { version: 'v2.8.3', source: 'flux-operator', mixed: false },
    ],
    [
      'flux bootstrap / flux install: the version label',
      install('v2.7.5'),
      undefined,
      { version: 'v2.7.5', source: 'version-label', mixed: false },
    ],
    [
      'a plain install.yaml of v2.6.0 (no label): the image versions, never v1.6.0 or v0.35.0',
      install('v2.6.0', { label: false }),
      undefined,
      { version: 'v2.6.0', source: 'controller-images', mixed: false },
    ],
    [
      'a Helm chart labels the app version without a v',
      install('v2.9.4', { label: false }).map(c => ({
        ...c,
        version: '2.9.4',
      })),
      undefined,
      { version: 'v2.9.4', source: 'version-label', mixed: false },
    ],
    [
      'identical images of two patch releases: the newest (v2.8.3 and v2.8.4 ship the same images)',
      install('v2.8.4', { label: false }),
      undefined,
      { version: 'v2.8.4', source: 'controller-images', mixed: false },
    ],
    [
      'an image the table does not know (a custom build) tells nothing',
      install('v2.6.0', { label: false }).map(c => ({
        ...c,
        imageVersion: 'main-abc123',
      })),
      undefined,
      { mixed: false },
    ],
  ])('%s', (_, controllers, operator, expected) => {
    expect(deriveInstanceFluxVersion(controllers, operator)).toMatchObject(
      expected,
    );
  });

  it('finds mixed controller versions and names each controller with its release', () => {
    const controllers = install('v2.6.0', {
      label: false,
      tags: { 'helm-controller': 'v1.5.0' },
    });
    const version = deriveInstanceFluxVersion(controllers);
    expect(version).toMatchObject({
      mixed: true,
      // the oldest release among the controllers' newest: where an upgrade starts from
      version: 'v2.6.0',
      source: 'controller-images',
    });
    const finding = mixedVersionsFinding('prod-eu', 'flux-system', version)!;
    expect(finding).toMatchObject({
      type: 'mixed-versions',
      severity: 'warning',
      instance: { cluster: 'prod-eu', instance: 'flux-system' },
    });
    expect(finding.message).toContain('helm-controller v1.5.0 (Flux v2.8.0)');
    expect(finding.message).toContain(
      'source-controller v1.6.0 (Flux v2.6.0–v2.6.1)',
    );
  });

  it('finds mixed version labels', () => {
    const controllers = install('v2.7.5');
    controllers[0] = { ...controllers[0], version: 'v2.6.4' };
    expect(deriveInstanceFluxVersion(controllers)).toMatchObject({
      mixed: true,
      version: 'v2.6.4',
    });
  });

  it('gives no mixed-versions finding for one release', () => {
    expect(
      mixedVersionsFinding(
        'prod-eu',
        'flux-system',
        deriveInstanceFluxVersion(install('v2.6.0', { label: false })),
      ),
    ).toBeUndefined();
  });
});

describe('clusterFluxVersions', () => {
  it('gives one Flux version per instance, not the controllers image tags', () => {
    expect(
      clusterFluxVersions([
        ...install('v2.6.0', { label: false }),
        ...install('v2.8.3', { namespace: 'flux-tenants' }),
      ]),
    ).toEqual(['v2.6.0', 'v2.8.3']);
  });
});

describe('the release table', () => {
  it('covers Flux 2.0.0 to the newest 2.9 patch, oldest first, every release once', () => {
    const versions = FLUX_RELEASE_TABLE.map(r => r.version);
    expect(versions[0]).toBe('v2.0.0');
    expect(versions[versions.length - 1]).toBe('v2.9.4');
    expect(new Set(versions).size).toBe(versions.length);
    expect(FLUX_RELEASE_TABLE.filter(r => r.minor === 9)).toHaveLength(5);
  });

  it('ships source-watcher from Flux 2.7 only', () => {
    for (const r of FLUX_RELEASE_TABLE) {
      expect(r.controllers['source-watcher'] !== undefined).toBe(r.minor >= 7);
    }
  });

  it('counts how far behind the latest a version is', () => {
    expect(releasesBehind('v2.9.4')).toEqual({ minors: 0, releases: 0 });
    expect(releasesBehind('v2.8.8')).toEqual({ minors: 1, releases: 5 });
  });

  it('reads the operator version from a FluxReport or a FluxInstance revision', () => {
    expect(operatorFluxVersion('v2.8.3')).toBe('v2.8.3');
    expect(operatorFluxVersion('v2.8.3@sha256:abc')).toBe('v2.8.3');
    expect(operatorFluxVersion('2.x')).toBeUndefined();
    expect(operatorFluxVersion(undefined)).toBeUndefined();
  });
});
