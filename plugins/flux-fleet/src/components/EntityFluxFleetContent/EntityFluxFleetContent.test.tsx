import { ResponseError } from '@backstage/errors';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import {
  NOW,
  blockedByDependency,
  entityView,
  failingOnShard1,
  objectDetail,
  paymentsEntity,
} from '../../__testUtils__/fixtures';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { EntityFluxFleetContent } from './EntityFluxFleetContent';

/** The object titles in the table, top to bottom. */
const tableObjects = () =>
  within(screen.getByTestId('flux-fleet-objects'))
    .getAllByRole('button', { name: /^Details of/ })
    .map(button => button.getAttribute('aria-label'));

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole('button', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('EntityFluxFleetContent', () => {
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('lists every Flux object of the entity across clusters, the ones that need attention first', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<EntityFluxFleetContent />, {
      api,
      entity: paymentsEntity,
    });
    await screen.findByTestId('flux-fleet-objects');
    expect(tableObjects()).toEqual([
      'Details of Kustomization team-payments/payments in prod-eu-1',
      'Details of Kustomization team-payments/payments in staging',
      'Details of HelmRelease team-payments/payments-api in prod-eu-1',
      'Details of Kustomization team-payments/payments in prod-us-1',
    ]);
    expect(
      screen.getByText('Flux objects of payments (4 of 4)'),
    ).toBeInTheDocument();
    // The tab does not need the instances' versions, so it does not ask for them.
    expect(api.getInstances).not.toHaveBeenCalled();
  });

  it('filters by cluster, state and text', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<EntityFluxFleetContent />, {
      api,
      entity: paymentsEntity,
    });
    await screen.findByTestId('flux-fleet-objects');

    await choose('Filter by cluster', 'prod-eu-1');
    expect(tableObjects()).toEqual([
      'Details of Kustomization team-payments/payments in prod-eu-1',
      'Details of HelmRelease team-payments/payments-api in prod-eu-1',
    ]);

    await choose('Filter by state', 'Failed');
    expect(tableObjects()).toEqual([
      'Details of Kustomization team-payments/payments in prod-eu-1',
    ]);

    await choose('Filter by cluster', 'All');
    await choose('Filter by state', 'All');
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Search' }),
      'platform-crds',
    );
    expect(tableObjects()).toEqual([
      'Details of Kustomization team-payments/payments in staging',
    ]);

    await userEvent.clear(screen.getByRole('textbox', { name: 'Search' }));
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Search' }),
      'no-such-thing',
    );
    expect(
      screen.getByText('No Flux object of this entity matches the filters.'),
    ).toBeInTheDocument();
    // many typed keys, each a render of the whole tab (deploy answer, matrix, table): slow on a shared machine
  }, 90_000);

  it('sorts by a column when its header is clicked', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<EntityFluxFleetContent />, {
      api,
      entity: paymentsEntity,
    });
    await screen.findByTestId('flux-fleet-objects');
    const sortByCluster = () =>
      userEvent.click(
        within(screen.getByRole('columnheader', { name: 'Cluster' })).getByText(
          'Cluster',
        ),
      );
    await sortByCluster();
    const clustersInOrder = () =>
      within(screen.getByTestId('flux-fleet-objects'))
        .getAllByRole('button', { name: /^Details of/ })
        .map(b => b.getAttribute('aria-label')!.split(' in ')[1]);
    expect(clustersInOrder()).toEqual([
      'prod-eu-1',
      'prod-eu-1',
      'prod-us-1',
      'staging',
    ]);
    await sortByCluster();
    expect(clustersInOrder()).toEqual([
      'staging',
      'prod-us-1',
      'prod-eu-1',
      'prod-eu-1',
    ]);
  });

  it('opens the detail view of a blocked object with its dependency chain, root cause, inventory, events, findings and CLI commands', async () => {
    const api = fakeFluxFleetApi({
      getObject: jest.fn(async () =>
        objectDetail(blockedByDependency, {
          dependencies: [
            {
              ref: {
                cluster: 'staging',
                namespace: 'flux-system',
                kind: 'Kustomization',
                name: 'platform-crds',
              },
              depth: 1,
              state: 'blocked',
              reason: 'DependencyNotReady',
            },
            {
              ref: {
                cluster: 'staging',
                namespace: 'flux-system',
                kind: 'Kustomization',
                name: 'cert-manager',
              },
              depth: 2,
              state: 'failed',
              reason: 'HealthCheckFailed',
              message:
                'timeout waiting for: [Deployment/cert-manager/cert-manager-webhook status: InProgress]',
            },
          ],
          rootCause: {
            ref: {
              cluster: 'staging',
              namespace: 'flux-system',
              kind: 'Kustomization',
              name: 'cert-manager',
            },
            depth: 2,
            state: 'failed',
            reason: 'HealthCheckFailed',
            message:
              'timeout waiting for: [Deployment/cert-manager/cert-manager-webhook status: InProgress]',
          },
          inventory: [
            {
              id: 'team-payments_api__Service',
              namespace: 'team-payments',
              name: 'api',
              group: '',
              kind: 'Service',
              version: 'v1',
            },
            {
              id: 'team-payments_api_apps_Deployment',
              namespace: 'team-payments',
              name: 'api',
              group: 'apps',
              kind: 'Deployment',
              version: 'v1',
            },
          ],
          events: [
            {
              type: 'Normal',
              reason: 'DependencyNotReady',
              message:
                'Dependencies do not meet ready condition, retrying in 30s',
              count: 14,
              lastTimestamp: '2026-07-14T10:19:30Z',
              source: 'kustomize-controller',
            },
          ],
          findingDetails: [
            {
              type: 'cross-tenant-reference',
              severity: 'warning',
              object: blockedByDependency.ref,
              message:
                'depends on flux-system/platform-crds of tenant platform',
              related: [
                {
                  cluster: 'staging',
                  namespace: 'flux-system',
                  kind: 'Kustomization',
                  name: 'platform-crds',
                },
              ],
            },
          ],
        }),
      ),
    });
    await renderWithApis(<EntityFluxFleetContent />, {
      api,
      entity: paymentsEntity,
    });
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Details of Kustomization team-payments/payments in staging',
      }),
    );
    const drawer = await screen.findByTestId('flux-fleet-detail');
    expect(api.getObject).toHaveBeenCalledWith(blockedByDependency.ref);

    expect(
      within(drawer).getByTestId('flux-fleet-root-cause'),
    ).toHaveTextContent('Root cause: Kustomization flux-system/cert-manager');
    expect(
      within(drawer).getByTestId('flux-fleet-root-cause'),
    ).toHaveTextContent(
      'Failed (HealthCheckFailed): timeout waiting for: [Deployment/cert-manager/cert-manager-webhook status: InProgress]',
    );
    const chain = within(drawer).getByTestId('flux-fleet-dependencies');
    expect(chain).toHaveTextContent(
      'Kustomization flux-system/platform-crds — Blocked',
    );
    expect(chain).toHaveTextContent(
      'Kustomization flux-system/cert-manager — Failed',
    );

    const inventory = within(drawer).getByTestId('flux-fleet-inventory');
    expect(inventory).toHaveTextContent('Inventory (2)');
    expect(within(inventory).getByText('Deployment')).toBeInTheDocument();
    expect(within(inventory).getByText('apps/v1')).toBeInTheDocument();

    expect(within(drawer).getByTestId('flux-fleet-events')).toHaveTextContent(
      'DependencyNotReady ×14 · 30 seconds ago · kustomize-controller',
    );
    expect(within(drawer).getByTestId('flux-fleet-findings')).toHaveTextContent(
      'Reference to another tenant: depends on flux-system/platform-crds of tenant platform',
    );
    expect(within(drawer).getByTestId('flux-fleet-cli')).toHaveTextContent(
      'flux get kustomization payments -n team-payments --context staging',
    );
    expect(
      within(drawer).getByRole('button', { name: 'Copy: Reconcile now' }),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(screen.queryByTestId('flux-fleet-detail')).not.toBeInTheDocument(),
    );
  });

  it('says so when the opened object no longer exists', async () => {
    const gone = await ResponseError.fromResponse(
      new Response(
        JSON.stringify({
          error: {
            name: 'NotFoundError',
            message:
              'No Flux object prod-eu-1/team-payments/Kustomization/payments',
          },
          response: { statusCode: 404 },
        }),
        {
          status: 404,
          statusText: 'Not Found',
          headers: { 'Content-Type': 'application/json' },
        },
      ) as any,
    );
    const api = fakeFluxFleetApi({
      getObject: jest.fn(async () => {
        throw gone;
      }),
    });
    await renderWithApis(<EntityFluxFleetContent />, {
      api,
      entity: paymentsEntity,
    });
    await userEvent.click(
      await screen.findByRole('button', {
        name: `Details of ${failingOnShard1.ref.kind} team-payments/payments in prod-eu-1`,
      }),
    );
    expect(await screen.findByTestId('flux-fleet-detail')).toHaveTextContent(
      'Kustomization team-payments/payments is no longer in cluster prod-eu-1: it may have been deleted.',
    );
  });

  it('explains how to link the entity when it has no Flux objects', async () => {
    const api = fakeFluxFleetApi({
      getEntityView: jest.fn(async () =>
        entityView({
          objects: [],
          link: { labelSelector: 'app.kubernetes.io/name=payments' },
        }),
      ),
    });
    await renderWithApis(<EntityFluxFleetContent />, {
      api,
      entity: paymentsEntity,
    });
    expect(await screen.findByTestId('flux-fleet-empty')).toHaveTextContent(
      'No Flux object, nor any workload one of them applies, has labels matching app.kubernetes.io/name=payments.',
    );
  });
});
