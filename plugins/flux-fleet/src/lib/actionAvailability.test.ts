import { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { actionAvailability } from './actionAvailability';

describe('actionAvailability', () => {
  const object = {
    key: 'prod-eu-1/apps/ExternalArtifact/bundle',
    ref: {
      cluster: 'prod-eu-1',
      namespace: 'apps',
      kind: 'ExternalArtifact' as const,
      name: 'bundle',
    },
    suspended: false,
    stale: false,
    state: { state: 'ready' as const },
  } as Pick<FleetObject, 'key' | 'ref' | 'suspended' | 'stale' | 'state'>;
  const allowed = { allowed: true, loading: false };

  it('offers nothing on an ExternalArtifact, saying why', () => {
    expect(
      actionAvailability(object, undefined, {
        reconcile: allowed,
        suspend: allowed,
      }),
    ).toEqual([
      {
        action: 'reconcile',
        label: 'Reconcile',
        disabledReason:
          'Flux does not reconcile an ExternalArtifact: its producer writes it.',
      },
      {
        action: 'suspend',
        label: 'Suspend',
        disabledReason:
          'Flux does not reconcile an ExternalArtifact: its producer writes it.',
      },
    ]);
  });

  it('waits for the permission decision before enabling anything', () => {
    const kustomization = {
      ...object,
      ref: { ...object.ref, kind: 'Kustomization' as const },
    };
    expect(
      actionAvailability(kustomization, undefined, {
        reconcile: { allowed: false, loading: true },
        suspend: allowed,
      }).map(a => a.disabledReason),
    ).toEqual(['Checking your permission…', undefined]);
  });
});
