import { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { actionAvailability } from './actionAvailability';
import { errorMessage } from './errorMessage';
import { isFluxFleetEntity } from './fluxFleetEntity';
import { contestedAdvice, orphanAdvice, ownerLabel } from './ownerText';
import { ageOf, relativeTime } from './relativeTime';

const NOW = Date.parse('2026-07-14T10:20:00Z');

describe('relativeTime and ageOf', () => {
  it('say how long ago a time was', () => {
    expect(relativeTime('2026-07-14T10:08:00Z', NOW)).toBe('12 minutes ago');
    expect(relativeTime('2026-07-10T10:20:00Z', NOW)).toBe('4 days ago');
    expect(ageOf('2026-07-14T09:19:00Z', NOW)).toBe('1 hour');
    expect(ageOf('2026-07-14T10:19:59Z', NOW)).toBe('1 second');
  });

  it('show a value that is not a time as it is', () => {
    expect(relativeTime('yesterday-ish', NOW)).toBe('yesterday-ish');
    expect(ageOf('yesterday-ish', NOW)).toBe('since yesterday-ish');
  });
});

describe('owner texts', () => {
  const ref = {
    cluster: 'prod-eu-1',
    namespace: 'apps',
    kind: 'HelmRelease' as const,
    name: 'web',
  };

  it('name the instance and shard of an owned object', () => {
    expect(
      ownerLabel({
        status: 'ok',
        instance: 'flux-system',
        shard: 'shard2',
        controller: 'helm-controller-shard2',
      }),
    ).toBe('flux-system / shard2');
    expect(
      ownerLabel({
        status: 'orphan',
        instance: null,
        shard: null,
        controller: null,
      }),
    ).toBe('orphan');
  });

  it('advise an orphan without a shard label to check the namespace scope', () => {
    expect(orphanAdvice({ ref, labels: {} }, [])).toBe(
      'No controller watches this object: add a shard label that a controller selects, e.g. sharding.fluxcd.io/key=shard1. Check that a controller for HelmRelease watches namespace apps (--watch-all-namespaces).',
    );
  });

  it('count the controllers of a contested object', () => {
    const candidates = ['main', 'shard1', 'shard2'].map(shard => ({
      instance: 'flux-system',
      shard,
      controller: `helm-controller-${shard}`,
    }));
    expect(
      contestedAdvice({
        status: 'contested',
        instance: null,
        shard: null,
        controller: null,
        candidates,
      }),
    ).toMatch(
      /^3 controllers reconcile it: flux-system\/main \(helm-controller-main\) and flux-system\/shard1/,
    );
  });
});

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

describe('isFluxFleetEntity', () => {
  it('holds for components and Flux Fleet resources, including source types', () => {
    const entity = (kind: string, type: string) => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind,
      metadata: { name: 'x' },
      spec: { type },
    });
    expect(isFluxFleetEntity(entity('Component', 'website'))).toBe(true);
    expect(isFluxFleetEntity(entity('Resource', 'flux-gitrepository'))).toBe(
      true,
    );
    expect(isFluxFleetEntity(entity('Resource', 'kubernetes-cluster'))).toBe(
      true,
    );
    expect(isFluxFleetEntity(entity('Resource', 'database'))).toBe(false);
    expect(isFluxFleetEntity(entity('API', 'openapi'))).toBe(false);
  });
});

describe('errorMessage', () => {
  it('gives the message of anything thrown', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain text')).toBe('plain text');
  });
});
