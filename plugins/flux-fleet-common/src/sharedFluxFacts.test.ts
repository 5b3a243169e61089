/**
 * Checks against the shared Flux material of the project (`/work/shared`): the real Flux CRDs and the example
 * objects beside the domain notes. These files live outside the repository; when `/work/shared` is absent the
 * tests below are skipped, and their names say why.
 */
import * as fs from 'fs';
import * as path from 'path';
import { normalizeFluxObject } from './normalize';
import { deriveReconcileState } from './state';

// FLUX_FLEET_SHARED points elsewhere (or nowhere, to see the skip).
const SHARED = process.env.FLUX_FLEET_SHARED ?? '/work/shared';
const CRDS = path.join(SHARED, 'crds');
const EXAMPLES = path.join(SHARED, 'docs', 'examples');
const present = fs.existsSync(CRDS) && fs.existsSync(EXAMPLES);
const describeShared = present ? describe : describe.skip;
const because = present
  ? ''
  : ` (skipped: ${SHARED} is absent on this machine)`;

/**
 * The spec and status fields normalisation reads, per CRD. Each must be a property the CRD defines: a typo here or
 * in `normalize.ts` would silently read nothing.
 */
const FIELDS_READ: Record<string, string[]> = {
  'kustomize.toolkit.fluxcd.io_kustomizations.yaml': [
    'suspend',
    'serviceAccountName',
    'interval',
    'sourceRef',
    'dependsOn',
    'kubeConfig',
    'observedGeneration',
    'lastHandledReconcileAt',
    'lastAppliedRevision',
    'lastAttemptedRevision',
    'inventory',
    'entries',
    'history',
    'lastReconciledDuration',
    'conditions',
  ],
  'helm.toolkit.fluxcd.io_helmreleases.yaml': [
    'suspend',
    'serviceAccountName',
    'interval',
    'chartRef',
    'chart',
    'sourceRef',
    'dependsOn',
    'kubeConfig',
    'observedGeneration',
    'lastHandledReconcileAt',
    'history',
    'chartVersion',
    'lastAttemptedRevision',
    'inventory',
  ],
  'source.toolkit.fluxcd.io_gitrepositories.yaml': [
    'url',
    'interval',
    'suspend',
    'artifact',
    'revision',
  ],
  'source.toolkit.fluxcd.io_ocirepositories.yaml': [
    'url',
    'interval',
    'suspend',
    'artifact',
    'revision',
  ],
  'source.toolkit.fluxcd.io_helmrepositories.yaml': [
    'url',
    'type',
    'interval',
    'suspend',
    'artifact',
  ],
  'source.toolkit.fluxcd.io_helmcharts.yaml': [
    'sourceRef',
    'interval',
    'suspend',
    'artifact',
  ],
  'source.toolkit.fluxcd.io_buckets.yaml': [
    'endpoint',
    'bucketName',
    'interval',
    'suspend',
    'artifact',
  ],
  'source.toolkit.fluxcd.io_externalartifacts.yaml': [
    'artifact',
    'revision',
    'url',
  ],
  'image.toolkit.fluxcd.io_imagepolicies.yaml': [
    'imageRepositoryRef',
    'latestRef',
    'tag',
    'suspend',
  ],
  'image.toolkit.fluxcd.io_imagerepositories.yaml': [
    'image',
    'interval',
    'suspend',
  ],
  'image.toolkit.fluxcd.io_imageupdateautomations.yaml': [
    'sourceRef',
    'lastPushCommit',
    'suspend',
  ],
  'notification.toolkit.fluxcd.io_alerts.yaml': ['providerRef', 'suspend'],
  'fluxcd.controlplane.io_fluxinstances.yaml': [
    'lastAppliedRevision',
    'lastAttemptedRevision',
    'inventory',
    'conditions',
  ],
  'fluxcd.controlplane.io_resourcesets.yaml': [
    'lastAppliedRevision',
    'inventory',
    'conditions',
  ],
};

describeShared(`the real Flux CRDs${because}`, () => {
  it.each(Object.entries(FIELDS_READ))(
    '%s defines every field Flux Fleet reads',
    (file, fields) => {
      const text = fs.readFileSync(path.join(CRDS, file), 'utf8');
      const missing = fields.filter(
        field => !new RegExp(`^\\s+${field}:`, 'm').test(text),
      );
      expect(missing).toEqual([]);
    },
  );

  it('has no status at all for Alerts and Providers (v1beta3), which is why they count as static', () => {
    for (const file of [
      'notification.toolkit.fluxcd.io_alerts.yaml',
      'notification.toolkit.fluxcd.io_providers.yaml',
    ]) {
      const text = fs.readFileSync(path.join(CRDS, file), 'utf8');
      expect(text).not.toMatch(/^ {10}status:/m);
    }
  });
});

describeShared(`the shared example objects${because}`, () => {
  const now = Date.parse('2026-07-14T10:00:00Z');
  const read = (file: string) =>
    JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));

  it.each<[string, object]>([
    [
      'kustomization-sharded-failing.json',
      { state: 'failed', reason: 'HealthCheckFailed' },
    ],
    ['helmrelease-v2-history.json', { state: 'ready', revision: '1.8.2' }],
    [
      'gitrepository-shard1.json',
      {
        state: 'ready',
        revision: 'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
      },
    ],
    ['fluxinstance-sharded.json', { state: 'ready' }],
  ])('%s normalises without problems and reads as %j', (file, expected) => {
    const result = normalizeFluxObject('example', read(file));
    expect(result.error).toBeUndefined();
    expect(result.record!.problems).toBeUndefined();
    expect(deriveReconcileState(result.record!, now)).toMatchObject(expected);
  });

  it('covers every example there is', () => {
    expect(
      fs
        .readdirSync(EXAMPLES)
        .filter(f => f.endsWith('.json'))
        .sort(),
    ).toEqual([
      'fluxinstance-sharded.json',
      'gitrepository-shard1.json',
      'helmrelease-v2-history.json',
      'kustomization-sharded-failing.json',
    ]);
  });
});
