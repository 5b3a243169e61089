import { ResponseError } from '@backstage/errors';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  SIGNAL_CHANNELS,
  ShardSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import { FakeSignalApi } from '../../__testUtils__/fakeSignalApi';
import {
  NOW,
  blockedByDependency,
  clusters,
  entityView,
  failingOnShard1,
  fleetObject,
  paymentsEntity,
  readyOnMain,
} from '../../__testUtils__/fixtures';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { EntityFluxFleetCard } from './EntityFluxFleetCard';

/** Opens the per-cluster details (instance, shard, boundary), one click away under the deploy answer. */
async function showDetails() {
  await userEvent.click(await screen.findByTestId('flux-fleet-details-toggle'));
}

const row = (cluster: string) =>
  screen.getByTestId(`flux-fleet-row-${cluster}`);

function shard(name: string): ShardSummary {
  return {
    cluster: 'prod-eu-1',
    instance: 'flux-system',
    name,
    controllers: [],
    objectCount: 10,
    countsByKind: {},
    countsByState: {},
    utilisation: 0.2,
  };
}

describe('EntityFluxFleetCard', () => {
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('shows one row per cluster with instance, shard, state and boundary', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    await showDetails();

    const eu = await screen.findByTestId('flux-fleet-row-prod-eu-1');
    expect(api.getEntityView).toHaveBeenCalledWith({
      kind: 'Component',
      namespace: 'default',
      name: 'payments',
    });
    expect(
      screen.getAllByTestId(/^flux-fleet-row-/).map(r => r.dataset.testid),
    ).toEqual([
      'flux-fleet-row-prod-eu-1',
      'flux-fleet-row-prod-us-1',
      'flux-fleet-row-staging',
    ]);

    const failing = within(eu).getByTestId(
      `flux-fleet-object-${failingOnShard1.key}`,
    );
    expect(within(failing).getByTestId('flux-fleet-shard')).toHaveTextContent(
      'shard1',
    );
    const state = within(failing).getByTestId('flux-fleet-state');
    expect(state).toHaveTextContent('Failed');
    expect(state).toHaveTextContent('HealthCheckFailed');
    expect(state).toHaveTextContent(
      "health check failed after 3m0.01s: timeout waiting for: [Deployment/team-payments/api status: 'InProgress']",
    );
    expect(state).toHaveTextContent('main@sha1:4f1c2d0b');
    expect(state).toHaveTextContent('attempted main@sha1:9ab2e7c4');
    expect(state).toHaveTextContent('for 1 hour');
    expect(
      within(failing).getByTestId('flux-fleet-boundary'),
    ).toHaveTextContent(
      'Enforced · tenant payments · namespace team-payments · runs as team-payments (spec.serviceAccountName)',
    );
    // The instance's Flux version and operator management come from /instances.
    await waitFor(() =>
      expect(
        within(failing).getByTestId('flux-fleet-instance'),
      ).toHaveTextContent(
        'flux-system · Flux v2.8.3 · operator-managed (FluxInstance flux)',
      ),
    );
    expect(
      within(row('prod-us-1')).getByTestId('flux-fleet-instance'),
    ).toHaveTextContent('not operator-managed');

    // Reconcilers first: both objects of prod-eu-1 are listed, the failing one before the ready HelmRelease.
    const titles = within(eu).getAllByRole('button', { name: /^Details of/ });
    expect(titles.map(t => t.textContent)).toEqual([
      'Kustomization team-payments/payments',
      'HelmRelease team-payments/payments-api',
    ]);

    const ready = within(row('prod-us-1')).getByTestId('flux-fleet-state');
    expect(ready).toHaveTextContent('Ready');
    expect(
      within(row('prod-us-1')).getByTestId('flux-fleet-shard'),
    ).toHaveTextContent('main');
  });

  it('links the revision to its commit when the source is on a known Git host', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    await showDetails();
    const us = await screen.findByTestId('flux-fleet-row-prod-us-1');
    expect(
      within(us).getByRole('link', { name: /commit of revision/ }),
    ).toHaveAttribute(
      'href',
      'https://github.com/acme/payments-deploy/commit/4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
    );
  });

  it('names the dependency a blocked object waits for', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    await showDetails();
    const staging = await screen.findByTestId('flux-fleet-row-staging');
    expect(within(staging).getByTestId('flux-fleet-state')).toHaveTextContent(
      'Blocked by Kustomization flux-system/platform-crds',
    );
    expect(within(staging).getByTestId('flux-fleet-state')).toHaveTextContent(
      "dependency 'flux-system/platform-crds' is not ready",
    );
  });

  it.each([
    [
      'suspended',
      {
        state: { state: 'suspended' as const, since: '2026-07-10T08:00:00Z' },
        suspended: true,
      },
      [
        'Suspended',
        'Flux does not reconcile it until it is resumed',
        'for 4 days',
      ],
    ],
    [
      'stalled',
      {
        state: {
          state: 'stalled' as const,
          reason: 'InvalidPath',
          message:
            'kustomization path not found: stat /tmp/kustomization-1/deploy/prod: no such file or directory',
        },
      },
      [
        'Stalled',
        'InvalidPath',
        'kustomization path not found',
        'Flux will not retry until the object or its source changes.',
      ],
    ],
    [
      'never reconciled',
      { state: { state: 'never-reconciled' as const } },
      ['Never reconciled', 'No controller has reconciled it yet'],
    ],
  ])(
    'shows a %s object with what it means',
    async (_name, overrides, texts) => {
      const object = fleetObject(readyOnMain.ref, overrides);
      const api = fakeFluxFleetApi({
        getEntityView: jest.fn(async () => entityView({ objects: [object] })),
      });
      await renderWithApis(<EntityFluxFleetCard />, {
        api,
        entity: paymentsEntity,
      });
      await showDetails();
      const state = within(
        await screen.findByTestId('flux-fleet-row-prod-us-1'),
      ).getByTestId('flux-fleet-state');
      for (const text of texts) {
        expect(state).toHaveTextContent(text);
      }
    },
  );

  it('keeps the last known rows of an unreachable cluster, marked stale, beside the other clusters', async () => {
    const staleObject = {
      ...failingOnShard1,
      stale: true,
      staleSince: '2026-07-14T10:08:00Z',
    };
    const unreachable = {
      ...clusters[0],
      status: 'unreachable' as const,
      synced: false,
      unreachableSince: '2026-07-14T10:08:00Z',
      lastError: 'prod-eu-1: connect ECONNREFUSED 10.0.0.1:6443',
    };
    const api = fakeFluxFleetApi({
      getEntityView: jest.fn(async () =>
        entityView({
          objects: [staleObject, readyOnMain],
          clusters: [unreachable, clusters[1]],
        }),
      ),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    await showDetails();

    const eu = await screen.findByTestId('flux-fleet-row-prod-eu-1');
    expect(within(eu).getAllByTestId('flux-fleet-stale')[0]).toHaveTextContent(
      'Stale for 12 minutes',
    );
    expect(within(eu).getByTestId('flux-fleet-state')).toHaveTextContent(
      'Failed',
    );
    expect(
      screen.getByTestId('flux-fleet-cluster-notice-prod-eu-1'),
    ).toHaveTextContent(
      'Cluster prod-eu-1 cannot be reached for 12 minutes (prod-eu-1: connect ECONNREFUSED 10.0.0.1:6443): its objects show their last known state, marked stale.',
    );
    // The reachable cluster is untouched.
    expect(
      within(row('prod-us-1')).queryByTestId('flux-fleet-stale'),
    ).not.toBeInTheDocument();
    expect(
      within(row('prod-us-1')).getByTestId('flux-fleet-state'),
    ).toHaveTextContent('Ready');
  });

  it('tells what to do about an orphan, with the shards the cluster really has', async () => {
    const orphan = fleetObject(failingOnShard1.ref, {
      labels: { 'sharding.fluxcd.io/key': 'shard3' },
      owner: {
        status: 'orphan',
        instance: null,
        shard: null,
        controller: null,
      },
      state: { state: 'never-reconciled' },
    });
    const api = fakeFluxFleetApi({
      getEntityView: jest.fn(async () => entityView({ objects: [orphan] })),
      getShards: jest.fn(async () => [
        shard('main'),
        shard('shard1'),
        shard('shard2'),
      ]),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    await showDetails();
    const shardCell = within(
      await screen.findByTestId('flux-fleet-row-prod-eu-1'),
    ).getByTestId('flux-fleet-shard');
    expect(shardCell).toHaveTextContent('Orphan');
    await waitFor(() =>
      expect(shardCell).toHaveTextContent(
        'No controller watches this object: add a shard label that a controller selects, e.g. sharding.fluxcd.io/key=shard1. Its label sharding.fluxcd.io/key=shard3 matches no controller in prod-eu-1; removing it hands the object to the main shard. Shards in prod-eu-1: shard1, shard2.',
      ),
    );
    expect(api.getShards).toHaveBeenCalledWith({ cluster: 'prod-eu-1' });
    expect(
      within(row('prod-eu-1')).getByTestId('flux-fleet-instance'),
    ).toHaveTextContent('no single instance');
  });

  it('names both controllers of a contested object and how to fix it', async () => {
    const contested = fleetObject(failingOnShard1.ref, {
      owner: {
        status: 'contested',
        instance: null,
        shard: null,
        controller: null,
        candidates: [
          {
            instance: 'flux-system',
            shard: 'main',
            controller: 'kustomize-controller',
          },
          {
            instance: 'flux-system',
            shard: 'shard1',
            controller: 'kustomize-controller-shard1',
          },
        ],
      },
    });
    const api = fakeFluxFleetApi({
      getEntityView: jest.fn(async () => entityView({ objects: [contested] })),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    await showDetails();
    const shardCell = within(
      await screen.findByTestId('flux-fleet-row-prod-eu-1'),
    ).getByTestId('flux-fleet-shard');
    expect(shardCell).toHaveTextContent('Contested');
    expect(shardCell).toHaveTextContent(
      'Two controllers reconcile it: flux-system/main (kustomize-controller) and flux-system/shard1 (kustomize-controller-shard1).',
    );
    expect(shardCell).toHaveTextContent('!sharding.fluxcd.io/key');
    expect(api.getShards).not.toHaveBeenCalled();
  });

  it('shows a boundary that is not enforced, and why', async () => {
    const unbounded = fleetObject(readyOnMain.ref, {
      boundary: {
        cluster: 'prod-us-1',
        instance: 'flux-system',
        namespace: 'team-payments',
        tenant: 'payments',
        serviceAccount: null,
        serviceAccountSource: 'controller',
        lockdown: false,
        enforcement: 'none',
        reasons: [
          "runs as the controller's own identity (no spec.serviceAccountName and no --default-service-account)",
          'cross-namespace references allowed (--no-cross-namespace-refs is off)',
        ],
      },
    });
    const api = fakeFluxFleetApi({
      getEntityView: jest.fn(async () => entityView({ objects: [unbounded] })),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    await showDetails();
    const boundary = within(
      await screen.findByTestId('flux-fleet-row-prod-us-1'),
    ).getByTestId('flux-fleet-boundary');
    expect(boundary).toHaveTextContent(
      'None · tenant payments · namespace team-payments · runs as controller identity',
    );
    expect(boundary).toHaveTextContent(
      "runs as the controller's own identity (no spec.serviceAccountName and no --default-service-account)",
    );
    expect(boundary).toHaveTextContent(
      'cross-namespace references allowed (--no-cross-namespace-refs is off)',
    );
  });

  it('explains how to link the service when it has no Flux objects', async () => {
    const api = fakeFluxFleetApi({
      getEntityView: jest.fn(async () =>
        entityView({ objects: [], clusters: [] }),
      ),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    const empty = await screen.findByTestId('flux-fleet-empty');
    expect(empty).toHaveTextContent(
      'No Flux objects are linked to this entity',
    );
    expect(empty).toHaveTextContent('backstage.io/kubernetes-id: payments');
    expect(empty).toHaveTextContent('backstage.io/kubernetes-label-selector');
    expect(empty).toHaveTextContent('flux-fleet.io/service: payments');
  });

  it('shows the backend error, naming the entity, when the view cannot be loaded, and tries again on request', async () => {
    const response = new Response(
      JSON.stringify({
        error: {
          name: 'NotFoundError',
          message: 'No catalog entity component:default/payments',
        },
        response: { statusCode: 404 },
      }),
      {
        status: 404,
        statusText: 'Not Found',
        headers: { 'Content-Type': 'application/json' },
      },
    );
    const error = await ResponseError.fromResponse(response as any);
    const api = fakeFluxFleetApi({
      getEntityView: jest
        .fn()
        .mockRejectedValueOnce(error)
        .mockResolvedValue(entityView()),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    const panel = await screen.findByTestId('flux-fleet-error');
    expect(panel).toHaveTextContent(
      'Could not read the Flux objects of component:default/payments',
    );
    expect(panel).toHaveTextContent(
      'No catalog entity component:default/payments',
    );
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Try again' }),
    );
    expect(
      await screen.findByTestId('flux-fleet-deploy-line-prod-eu-1'),
    ).toBeInTheDocument();
  });

  it('shows progress while loading', async () => {
    const api = fakeFluxFleetApi({
      getEntityView: jest.fn(() => new Promise(() => {})),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
    });
    expect(screen.getByTestId('flux-fleet-loading')).toBeInTheDocument();
  });

  it('re-fetches and shows the new state when a signal arrives on the entity channel', async () => {
    const signals = new FakeSignalApi();
    const recovered = fleetObject(failingOnShard1.ref, {
      labels: failingOnShard1.labels,
      owner: failingOnShard1.owner,
      state: {
        state: 'ready',
        reason: 'ReconciliationSucceeded',
        revision: 'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
        since: '2026-07-14T10:19:00Z',
      },
    });
    const api = fakeFluxFleetApi({
      getEntityView: jest
        .fn()
        .mockResolvedValueOnce(entityView())
        .mockResolvedValue(
          entityView({
            objects: [recovered, readyOnMain, blockedByDependency],
          }),
        ),
    });
    await renderWithApis(<EntityFluxFleetCard />, {
      api,
      entity: paymentsEntity,
      signals,
    });
    await showDetails();
    const failingState = () =>
      within(
        screen.getByTestId(`flux-fleet-object-${failingOnShard1.key}`),
      ).getByTestId('flux-fleet-state');
    await screen.findByTestId('flux-fleet-row-prod-eu-1');
    expect(failingState()).toHaveTextContent('Failed');
    expect(signals.channels()).toContain(
      SIGNAL_CHANNELS.entity('component:default/payments'),
    );

    act(() => {
      signals.publish(SIGNAL_CHANNELS.entity('component:default/payments'), {
        keys: [failingOnShard1.key],
        at: '2026-07-14T10:19:01Z',
      });
    });
    await waitFor(() => expect(failingState()).toHaveTextContent('Ready'));
    expect(failingState()).toHaveTextContent('main@sha1:9ab2e7c4');
    expect(api.getEntityView).toHaveBeenCalledTimes(2);
    // Refreshed in place: the card never went back to its loading state.
    expect(screen.queryByTestId('flux-fleet-loading')).not.toBeInTheDocument();
  });
});
