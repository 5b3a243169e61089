import { screen, within } from '@testing-library/react';
import {
  FleetObject,
  FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import {
  NOW,
  clusters,
  entityView,
  fleetObject,
  objectDetail,
  paymentsEntity,
} from '../../__testUtils__/fixtures';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { objectKey } from '../../lib/objectKey';
import { EntityFluxFleetCard } from '../EntityFluxFleetCard';

const HEAD = 'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b';
const OLD = 'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e';

/** The payments Kustomization of one cluster, ready at `revision` unless overridden. */
const kustomization = (
  cluster: string,
  overrides: Partial<FleetObject> = {},
  revision = HEAD,
) =>
  fleetObject(
    {
      cluster,
      namespace: 'team-payments',
      kind: 'Kustomization',
      name: 'payments',
    },
    {
      ...overrides,
      state: {
        state: 'ready',
        reason: 'ReconciliationSucceeded',
        revision,
        since: '2026-07-14T10:02:30Z',
        ...overrides.state,
      },
    },
  );

/**
 * Renders the card for these objects, with the source (GitRepository team-payments/payments) of every cluster at
 * HEAD; the sources are not in the entity view, so the card reads them (as it does in the product).
 */
async function renderAnswer(
  objects: FleetObject[],
  clusterList = clusters,
  sources: Partial<Record<string, string>> = { GitRepository: HEAD },
) {
  const api = fakeFluxFleetApi({
    getEntityView: jest.fn(async () =>
      entityView({ objects, clusters: clusterList }),
    ),
    getObject: jest.fn(async (ref: FluxObjectRef) => {
      const revision = sources[ref.kind];
      if (!revision) throw new Error(`unexpected ${objectKey(ref)}`);
      return objectDetail(
        fleetObject(ref, {
          state: { state: 'ready', revision, reason: 'Succeeded' },
        }),
      );
    }),
  });
  await renderWithApis(<EntityFluxFleetCard />, {
    api,
    entity: paymentsEntity,
  });
  await screen.findByTestId('flux-fleet-deploy-answer');
  return api;
}

const line = (cluster: string) =>
  screen.getByTestId(`flux-fleet-deploy-line-${cluster}`);
describe('the deploy answer', () => {
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('says deployed and up to date everywhere, per environment, with the revision linked to its commit', async () => {
    const api = await renderAnswer([
      kustomization('prod-eu-1'),
      kustomization('prod-us-1'),
      kustomization('staging'),
    ]);
    expect(
      await screen.findByText(
        'Deployed and up to date with its source on all 3 clusters.',
      ),
    ).toBeInTheDocument();
    expect(api.getObject).toHaveBeenCalledWith({
      cluster: 'prod-eu-1',
      namespace: 'team-payments',
      kind: 'GitRepository',
      name: 'payments',
    });
    // staging before prod: the order a release goes through
    expect(
      screen
        .getAllByTestId(/^flux-fleet-deploy-env-/)
        .map(e => e.dataset.testid),
    ).toEqual(['flux-fleet-deploy-env-staging', 'flux-fleet-deploy-env-prod']);
    const eu = line('prod-eu-1');
    expect(
      within(eu).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Deployed');
    expect(eu).toHaveTextContent('main@sha1:9ab2e7c4');
    expect(eu).toHaveTextContent('what the source holds');
    expect(
      within(eu).getByRole('link', { name: /commit of revision/ }),
    ).toHaveAttribute(
      'href',
      'https://github.com/acme/payments-deploy/commit/9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
    );
    expect(within(eu).queryByTestId('flux-fleet-deploy-cause')).toBeNull();
  });

  it('names the one cluster that is behind its source, with what the source holds and the command to catch up', async () => {
    await renderAnswer([
      kustomization('prod-eu-1'),
      kustomization('prod-us-1', {}, OLD),
      kustomization('staging'),
    ]);
    expect(
      await screen.findByText(
        'Behind its source on 1 cluster; deployed on 2 of 3.',
      ),
    ).toBeInTheDocument();
    const us = line('prod-us-1');
    expect(
      within(us).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Behind its source');
    expect(us).toHaveTextContent(
      /main@sha1:4f1c2d0b.* · behind the source, which holds main@sha1:9ab2e7c4/,
    );
    expect(within(us).getByTestId('flux-fleet-deploy-cause')).toHaveTextContent(
      `The source holds ${HEAD}; Flux has not applied it yet (it reconciles every 60m).`,
    );
    expect(
      within(us).getByTestId('flux-fleet-deploy-command'),
    ).toHaveTextContent(
      'flux reconcile kustomization payments --with-source -n team-payments --context prod-us-1',
    );
    expect(
      within(line('prod-eu-1')).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Deployed');
  });

  it('does not call a revision from another branch "behind": it is deployed, from another ref than the source', async () => {
    await renderAnswer([
      kustomization('prod-eu-1'),
      kustomization('prod-us-1', {}, `release-1@sha1:${OLD.split(':')[1]}`),
    ]);
    expect(
      await screen.findByText('Deployed on all 2 clusters.'),
    ).toBeInTheDocument();
    const us = line('prod-us-1');
    expect(
      within(us).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Deployed');
    expect(
      within(us).getByTestId('flux-fleet-deploy-comparison'),
    ).toHaveTextContent(
      'from another ref than the source, which holds main@sha1:9ab2e7c4',
    );
    expect(within(us).queryByTestId('flux-fleet-deploy-cause')).toBeNull();
  });

  it("says a chart version above the source's is ahead of it, and one below is behind", async () => {
    const release = (cluster: string, chartVersion: string) =>
      fleetObject(
        {
          cluster,
          namespace: 'team-payments',
          kind: 'HelmRelease',
          name: 'payments',
        },
        {
          sourceRef: {
            kind: 'HelmRepository',
            namespace: 'team-payments',
            name: 'charts',
          },
          state: {
            state: 'ready',
            reason: 'UpgradeSucceeded',
            revision: chartVersion,
          },
        },
      );
    const api = await renderAnswer(
      [release('prod-eu-1', '4.22.2'), release('prod-us-1', '4.21.9')],
      clusters,
      { HelmChart: '4.22.1' },
    );
    expect(
      await screen.findByText(
        'Behind its source on 1 cluster; deployed on 1 of 2.',
      ),
    ).toBeInTheDocument();
    // helm-controller's chart for a HelmRepository: <namespace>-<name> in the repository's namespace
    expect(api.getObject).toHaveBeenCalledWith({
      cluster: 'prod-eu-1',
      namespace: 'team-payments',
      kind: 'HelmChart',
      name: 'team-payments-payments',
    });
    const eu = line('prod-eu-1');
    expect(
      within(eu).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Deployed');
    expect(
      within(eu).getByTestId('flux-fleet-deploy-comparison'),
    ).toHaveTextContent('ahead of the source, which holds 4.22.1');
    expect(
      within(line('prod-us-1')).getByTestId('flux-fleet-deploy-comparison'),
    ).toHaveTextContent('behind the source, which holds 4.22.1');
  });

  it('gives the root cause of a failing cluster in words: the blocking dependency, and the failing reason', async () => {
    await renderAnswer([
      kustomization('prod-eu-1', {
        state: {
          state: 'failed',
          reason: 'HealthCheckFailed',
          message:
            "health check failed after 3m0.01s: timeout waiting for: [Deployment/team-payments/api status: 'InProgress']",
          revision: OLD,
          attemptedRevision: HEAD,
          since: '2026-07-14T09:15:10Z',
        },
      }),
      kustomization('staging', {
        state: {
          state: 'blocked',
          reason: 'DependencyNotReady',
          message: "dependency 'flux-system/platform-crds' is not ready",
          blockedBy: {
            kind: 'Kustomization',
            namespace: 'flux-system',
            name: 'platform-crds',
          },
        },
      }),
    ]);
    expect(
      await screen.findByText('Failing on 2 clusters; deployed on 0 of 2.'),
    ).toBeInTheDocument();
    const eu = line('prod-eu-1');
    expect(
      within(eu).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Failing');
    expect(within(eu).getByTestId('flux-fleet-deploy-cause')).toHaveTextContent(
      "HealthCheckFailed: health check failed after 3m0.01s: timeout waiting for: [Deployment/team-payments/api status: 'InProgress']",
    );
    expect(
      within(eu).getByTestId('flux-fleet-deploy-command'),
    ).toHaveTextContent(
      'flux events --for Kustomization/payments -n team-payments --context prod-eu-1',
    );
    // since the Ready condition changed, at 09:15
    expect(eu).toHaveTextContent('1 hour ago');
    const staging = line('staging');
    expect(
      within(staging).getByTestId('flux-fleet-deploy-cause'),
    ).toHaveTextContent(
      'Waiting for its dependency Kustomization flux-system/platform-crds, which is not ready.',
    );
    expect(
      within(staging).getByTestId('flux-fleet-deploy-command'),
    ).toHaveTextContent(
      'flux tree kustomization payments -n team-payments --context staging',
    );
  });

  it('says which revision a progressing cluster is applying', async () => {
    await renderAnswer([
      kustomization('prod-eu-1', {
        state: {
          state: 'progressing',
          reason: 'Progressing',
          revision: OLD,
          attemptedRevision: HEAD,
        },
      }),
      kustomization('prod-us-1'),
    ]);
    expect(
      await screen.findByText('Progressing on 1 cluster; deployed on 1 of 2.'),
    ).toBeInTheDocument();
    const eu = line('prod-eu-1');
    expect(
      within(eu).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Progressing');
    expect(within(eu).getByTestId('flux-fleet-deploy-cause')).toHaveTextContent(
      `Applying ${HEAD}.`,
    );
  });

  it('says a suspended cluster is not reconciled until resumed', async () => {
    await renderAnswer([
      kustomization('prod-eu-1', {
        suspended: true,
        state: { state: 'suspended', reason: 'Suspended', revision: OLD },
      }),
      kustomization('prod-us-1'),
    ]);
    expect(
      await screen.findByText('Suspended on 1 cluster; deployed on 1 of 2.'),
    ).toBeInTheDocument();
    const eu = line('prod-eu-1');
    expect(
      within(eu).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Suspended');
    expect(within(eu).getByTestId('flux-fleet-deploy-cause')).toHaveTextContent(
      'Flux does not reconcile it until it is resumed',
    );
    expect(
      within(eu).getByTestId('flux-fleet-deploy-command'),
    ).toHaveTextContent(
      'flux get kustomization payments -n team-payments --context prod-eu-1',
    );
  });

  it('says an unreachable cluster shows its last known state, since when it went stale', async () => {
    const unreachable = {
      ...clusters[0],
      status: 'unreachable' as const,
      synced: false,
      unreachableSince: '2026-07-14T10:08:00Z',
    };
    await renderAnswer(
      [
        kustomization('prod-eu-1', {
          stale: true,
          staleSince: '2026-07-14T10:08:00Z',
        }),
        kustomization('prod-us-1'),
      ],
      [unreachable, clusters[1]],
    );
    expect(
      await screen.findByText(
        'Cluster unreachable on 1 cluster; deployed on 1 of 2.',
      ),
    ).toBeInTheDocument();
    const eu = line('prod-eu-1');
    expect(
      within(eu).getByTestId('flux-fleet-deploy-verdict'),
    ).toHaveTextContent('Cluster unreachable');
    expect(within(eu).getByTestId('flux-fleet-deploy-cause')).toHaveTextContent(
      'Cluster prod-eu-1 cannot be reached: this is the last state known (ready).',
    );
    expect(eu).toHaveTextContent('12 minutes ago');
  });
});
