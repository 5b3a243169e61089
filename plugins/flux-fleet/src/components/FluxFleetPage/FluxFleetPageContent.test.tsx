import {
  act,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  FleetSummary,
  Finding,
  FleetObject,
  ObjectQuery,
  SIGNAL_CHANNELS,
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import { FakeSignalApi } from '../../__testUtils__/fakeSignalApi';
import {
  NOW,
  clusters,
  failingOnShard1,
  fleetObject,
  instances,
  objectDetail,
} from '../../__testUtils__/fixtures';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { FluxFleetPageContent } from './FluxFleetPageContent';

const summary = (overrides: Partial<FleetSummary> = {}): FleetSummary => ({
  clusters: 3,
  clustersUnreachable: 1,
  instances: 3,
  shards: 5,
  objects: 100000,
  tenants: 12,
  countsByKind: {
    Kustomization: 40000,
    HelmRelease: 30000,
    GitRepository: 30000,
  },
  countsByState: { ready: 99000, failed: 700, stalled: 300 },
  findingsByType: { orphan: 2 },
  generatedAt: '2026-07-14T10:19:59Z',
  ...overrides,
});

const unreachableUs = {
  ...clusters[1],
  status: 'unreachable' as const,
  synced: false,
  unreachableSince: '2026-07-14T10:15:00Z',
  lastError: 'prod-us-1: connect ETIMEDOUT 10.1.0.1:6443',
};

/** A page of `limit` objects named after their position, as the backend would serve page n of a large fleet. */
function objectsPage(query: ObjectQuery) {
  const start = query.cursor ? Number(query.cursor) : 0;
  const limit = query.limit ?? 100;
  const items: FleetObject[] = Array.from({ length: limit }, (_, i) =>
    fleetObject({
      cluster: 'prod-eu-1',
      namespace: 'apps',
      kind: 'Kustomization',
      name: `app-${String(start + i).padStart(6, '0')}`,
    }),
  );
  const next = start + limit;
  return {
    items,
    totalCount: 100000,
    nextCursor: next < 100000 ? String(next) : undefined,
  };
}

function pageApi(overrides: Parameters<typeof fakeFluxFleetApi>[0] = {}) {
  return fakeFluxFleetApi({
    getSummary: jest.fn(async () => summary()),
    getClusters: jest.fn(async () => [clusters[0], unreachableUs, clusters[2]]),
    getObjects: jest.fn(async (query: ObjectQuery) => objectsPage(query)),
    ...overrides,
  });
}

/**
 * The big-table tests find buttons by their text and click them without userEvent's pointer sequence: over a page
 * of 100 rows, role queries and simulated hovers cost about a second each in jsdom.
 */
/**
 * Tests that render pages of 100 rows several times: about 7 s alone, several times that while the shared machine
 * is busy (a timeout, not a performance claim).
 */
const BIG_TABLE_TIMEOUT_MS = 180_000;

const clickText = (text: string) =>
  act(async () => {
    fireEvent.click(screen.getByText(text));
  });

/** The object names of the rows shown. */
const rowNames = () =>
  [
    ...screen
      .getByTestId('flux-fleet-fleet-objects')
      .querySelectorAll('[data-testid="flux-fleet-object-name"]'),
  ].map(name => name.textContent);

/** A line of a cell (its words each kept whole in spans of their own), by its whole text. */
const line = (text: string) => (_: string, element: Element | null) =>
  element?.tagName === 'DIV' && element.textContent === text;

const lastObjectQuery = (api: ReturnType<typeof pageApi>): ObjectQuery =>
  api.getObjects.mock.calls[api.getObjects.mock.calls.length - 1][0];

/** Clicks a link to the objects of shard prod-eu-1/flux-system/shard1 and checks the objects table asks for them. */
async function openShardObjects(api: ReturnType<typeof pageApi>, link: HTMLElement) {
  await userEvent.click(link);
  await waitFor(() =>
    expect(lastObjectQuery(api)).toEqual({
      limit: 100,
      cursor: undefined,
      cluster: ['prod-eu-1'],
      instance: ['flux-system'],
      shard: ['shard1'],
    }),
  );
}

// Every test renders the whole page (overview, tabs, tables): on the shared 2-core machine one takes 15-30 s.
jest.setTimeout(120_000);

describe('FluxFleetPageContent', () => {
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('shows the fleet at a glance and the health of every cluster', async () => {
    const api = pageApi();
    await renderWithApis(<FluxFleetPageContent />, { api });
    // the page opens on the overview, led by its answer
    expect(await screen.findByTestId('flux-fleet-overview-headline')).toHaveTextContent(
      /failed, blocked or stalled.*\. prod-us-1 cannot be read now: its objects are counted as last seen\.$/,
    );
    // the clusters table is the next tab
    await userEvent.click(screen.getByRole('tab', { name: 'Clusters' }));
    const summaryBar = await screen.findByTestId('flux-fleet-summary');
    await waitFor(() =>
      expect(summaryBar).toHaveTextContent(
        '3 clusters (1 unreachable) · 3 instances · 5 shards · 100,000 Flux objects · 12 tenants',
      ),
    );
    expect(
      within(summaryBar).getByRole('button', { name: 'Failed: 700' }),
    ).toBeInTheDocument();

    const table = await screen.findByTestId('flux-fleet-clusters');
    // the answer first: which clusters are not synced, and why
    expect(within(table).getByTestId('flux-fleet-clusters-headline')).toHaveTextContent(
      /^\d of 3 clusters synced; prod-us-1 unreachable for 5 minutes/,
    );
    const usRow = within(table)
      .getByRole('button', { name: 'Objects of cluster prod-us-1' })
      .closest('tr')!;
    expect(usRow).toHaveTextContent('Unreachable for 5 minutes');
    expect(usRow).toHaveTextContent(
      'prod-us-1: connect ETIMEDOUT 10.1.0.1:6443',
    );
    const euRow = within(table)
      .getByRole('button', { name: 'Objects of cluster prod-eu-1' })
      .closest('tr')!;
    expect(euRow).toHaveTextContent('Synced');
    expect(euRow).toHaveTextContent('120 ms');
    expect(euRow).toHaveTextContent(
      'GitRepository 500, Kustomization 400 and 1 more kinds',
    );
    expect(
      screen.getByTestId('flux-fleet-cluster-notice-prod-us-1'),
    ).toHaveTextContent('Cluster prod-us-1 cannot be reached for 5 minutes');
    // Nothing else is read until its tab is opened.
    expect(api.getObjects).not.toHaveBeenCalled();
    expect(api.getFindings).not.toHaveBeenCalled();
  });

  it(
    'pages through 100,000 objects with the server cursor, one page at a time',
    async () => {
      const api = pageApi();
      await renderWithApis(<FluxFleetPageContent />, { api });
      await userEvent.click(screen.getByRole('tab', { name: 'Objects' }));

      const range = await screen.findByTestId('flux-fleet-page-range');
      await waitFor(() => expect(range).toHaveTextContent('1–100 of 100,000'));
      expect(lastObjectQuery(api)).toEqual({ limit: 100, cursor: undefined });
      expect(rowNames()).toHaveLength(100);
      expect(rowNames()[0]).toBe('apps/app-000000');
      expect(rowNames()[99]).toBe('apps/app-000099');

      await clickText('Next page');
      await waitFor(() =>
        expect(range).toHaveTextContent('101–200 of 100,000'),
      );
      expect(lastObjectQuery(api)).toEqual({ limit: 100, cursor: '100' });
      expect(rowNames()[0]).toBe('apps/app-000100');

      await clickText('Next page');
      await waitFor(() =>
        expect(range).toHaveTextContent('201–300 of 100,000'),
      );
      await clickText('Previous page');
      await waitFor(() =>
        expect(range).toHaveTextContent('101–200 of 100,000'),
      );
      expect(lastObjectQuery(api)).toEqual({ limit: 100, cursor: '100' });
      expect(screen.getByText('Previous page').closest('button')).toBeEnabled();

      // A new order starts again at the first page, and the server sorts.
      await act(async () => {
        fireEvent.click(
          within(screen.getByTestId('flux-fleet-fleet-objects')).getByText(
            'State',
          ),
        );
      });
      await waitFor(() => expect(range).toHaveTextContent('1–100 of 100,000'));
      expect(lastObjectQuery(api)).toEqual({
        limit: 100,
        cursor: undefined,
        sort: 'state',
        order: 'asc',
      });
      expect(
        screen.getByText('Previous page').closest('button'),
      ).toBeDisabled();

      // Never more than one page was asked for at a time.
      for (const [query] of api.getObjects.mock.calls) {
        expect(query.limit).toBe(100);
      }
    },
    BIG_TABLE_TIMEOUT_MS,
  );

  it(
    'sends the filters to the server and starts again at the first page',
    async () => {
      const api = pageApi();
      await renderWithApis(<FluxFleetPageContent />, { api });
      await userEvent.click(screen.getByRole('tab', { name: 'Objects' }));
      await screen.findByTestId('flux-fleet-page-range');
      await clickText('Next page');
      await waitFor(() => expect(lastObjectQuery(api).cursor).toBe('100'));

      await userEvent.click(screen.getByLabelText('Filter by state'));
      await userEvent.click(
        await screen.findByRole('option', { name: 'Failed' }),
      );
      await userEvent.keyboard('{Escape}');
      await waitFor(() =>
        expect(lastObjectQuery(api)).toEqual({
          limit: 100,
          cursor: undefined,
          state: ['failed'],
        }),
      );

      await userEvent.type(screen.getByLabelText('Shard'), 'shard1');
      await waitFor(() =>
        expect(lastObjectQuery(api)).toEqual({
          limit: 100,
          cursor: undefined,
          state: ['failed'],
          shard: ['shard1'],
        }),
      );
      // Typing asked once, after the pause, not once per key.
      expect(
        api.getObjects.mock.calls.filter(([q]: [ObjectQuery]) => q.shard),
      ).toHaveLength(1);

      await clickText('Clear filters');
      await waitFor(() =>
        expect(lastObjectQuery(api)).toEqual({ limit: 100, cursor: undefined }),
      );
    },
    BIG_TABLE_TIMEOUT_MS,
  );

  it(
    'leads from a cluster, a state count, a shard and a tenant to their objects',
    async () => {
      const shards: ShardSummary[] = [
        {
          cluster: 'prod-eu-1',
          instance: 'flux-system',
          name: 'shard1',
          selector: 'sharding.fluxcd.io/key=shard1',
          controllers: ['kustomize-controller-shard1'],
          objectCount: 4200,
          countsByKind: { Kustomization: 4000, HelmRelease: 200 },
          countsByState: { ready: 4100, failed: 100 },
          utilisation: 1.32,
        },
        {
          cluster: 'prod-eu-1',
          instance: 'flux-system',
          name: 'main',
          selector: '!sharding.fluxcd.io/key',
          controllers: ['kustomize-controller'],
          objectCount: 300,
          countsByKind: { Kustomization: 300 },
          countsByState: { ready: 300 },
          utilisation: 0.41,
        },
      ];
      const tenants: TenantSummary[] = [
        {
          name: 'payments',
          group: 'group:default/team-payments',
          namespaces: [{ cluster: 'prod-eu-1', namespace: 'team-payments' }],
          shards: [
            { cluster: 'prod-eu-1', instance: 'flux-system', shard: 'shard1' },
          ],
          objectCount: 40,
          countsByEnforcement: { enforced: 38, none: 2 },
          weakestEnforcement: 'none',
        },
      ];
      const api = pageApi({
        getShards: jest.fn(async () => shards),
        getTenants: jest.fn(async () => tenants),
      });
      await renderWithApis(<FluxFleetPageContent />, { api });
      // the page opens on the overview; the clusters table is the next tab
      await userEvent.click(screen.getByRole('tab', { name: 'Clusters' }));

      await userEvent.click(
        await screen.findByRole('button', {
          name: 'Objects of cluster prod-eu-1',
        }),
      );
      await waitFor(() =>
        expect(lastObjectQuery(api)).toEqual({
          limit: 100,
          cursor: undefined,
          cluster: ['prod-eu-1'],
        }),
      );
      expect(screen.getByTestId('flux-fleet-tab-objects')).toBeInTheDocument();

      await userEvent.click(
        await screen.findByRole('button', { name: 'Stalled: 300' }),
      );
      await waitFor(() =>
        expect(lastObjectQuery(api)).toEqual({
          limit: 100,
          cursor: undefined,
          state: ['stalled'],
        }),
      );

      await userEvent.click(
        screen.getByRole('tab', { name: 'Instances & shards' }),
      );
      const load = await screen.findByTestId('flux-fleet-shard-load');
      const busiest = within(load).getByRole('meter', {
        name: 'prod-eu-1 / flux-system / shard1',
      });
      expect(busiest).toHaveAttribute('aria-valuenow', '132');
      expect(
        within(load)
          .getAllByRole('meter')
          .map(m => m.getAttribute('aria-label')),
      ).toEqual([
        'prod-eu-1 / flux-system / shard1',
        'prod-eu-1 / flux-system / main',
      ]);
      expect(
        within(screen.getByTestId('flux-fleet-instances')).getByText(line('FluxInstance flux')),
      ).toBeInTheDocument();
      const shardRow = screen
        .getByRole('button', {
          name: 'Objects of shard prod-eu-1/flux-system/shard1',
        })
        .closest('tr')!;
      expect(shardRow).toHaveTextContent('Kustomization 4000, HelmRelease 200');
      expect(shardRow).toHaveTextContent('Failed 100, Ready 4100');
      await openShardObjects(api, screen.getByRole('button', { name: 'Objects of shard prod-eu-1/flux-system/shard1' }));

      await userEvent.click(screen.getByRole('tab', { name: 'Tenants' }));
      const tenantRow = (
        await screen.findByRole('button', {
          name: 'Objects of tenant payments',
        })
      ).closest('tr')!;
      expect(tenantRow).toHaveTextContent('None at weakest');
      expect(tenantRow).toHaveTextContent('None 2 · Enforced 38');
      expect(tenantRow).toHaveTextContent('flux-system/shard1 on prod-eu-1');
      expect(tenantRow).toHaveTextContent('team-payments on prod-eu-1');
      expect(screen.getByTestId('flux-fleet-tenants-headline')).toHaveTextContent(
        '1 tenant owns 40 Flux objects; 1 has objects with no enforced boundary: payments.',
      );
      expect(
        within(tenantRow).getByRole('link', { name: /team-payments/ }),
      ).toBeInTheDocument();
      await userEvent.click(
        screen.getByRole('button', { name: 'Objects of tenant payments' }),
      );
      await waitFor(() =>
        expect(lastObjectQuery(api)).toEqual({
          limit: 100,
          cursor: undefined,
          tenant: ['payments'],
        }),
      );
    },
    BIG_TABLE_TIMEOUT_MS,
  );

  it('shows each instance with its version, management, lockdown and the problems of its controllers', async () => {
    const api = pageApi({
      getInstances: jest.fn(async () => [
        {
          ...instances[0],
          lockdown: false,
          defaultServiceAccount: 'default-apply',
          controllers: [
            {
              cluster: 'prod-eu-1',
              instance: 'flux-system',
              name: 'kustomize-controller-shard3',
              component: 'kustomize-controller' as const,
              shard: 'sharding.fluxcd.io/key=in(shard3',
              selectorError: 'unclosed parenthesis',
              watchAllNamespaces: true,
              concurrent: 4,
              noCrossNamespaceRefs: false,
              noRemoteBases: false,
              operatorManaged: true,
            },
          ],
        },
      ]),
    });
    await renderWithApis(<FluxFleetPageContent />, { api });
    await userEvent.click(
      screen.getByRole('tab', { name: 'Instances & shards' }),
    );
    const table = within(await screen.findByTestId('flux-fleet-instances'));
    // management and tenancy settings one a line
    // the answer first: which instance's controllers have problems
    expect(screen.getByTestId('flux-fleet-instances-headline')).toHaveTextContent(
      /controllers of prod-eu-1\/flux-system have problems/,
    );
    const row = table.getByText(line('FluxInstance flux')).closest('tr')!;
    for (const text of ['Flux Operator', 'all namespaces', 'cross-namespace refs allowed', 'default SA default-apply']) {
      expect(within(row).getByText(line(text))).toBeInTheDocument();
    }
    expect(
      table.getByText(
        'kustomize-controller-shard3: --watch-label-selector does not parse (unclosed parenthesis); it watches nothing',
      ),
    ).toBeInTheDocument();
  });

  it('groups findings by type, worst first, each leading to its objects and to the detail of one', async () => {
    const orphanRef = {
      cluster: 'prod-eu-1',
      namespace: 'team-shop',
      kind: 'Kustomization' as const,
      name: 'checkout',
    };
    const findings: Finding[] = [
      {
        type: 'boundary-none',
        severity: 'warning',
        object: failingOnShard1.ref,
        message:
          'tenant payments: prod-eu-1/team-payments/Kustomization/payments runs as the controller identity',
        related: [],
      },
      {
        type: 'orphan',
        severity: 'error',
        object: orphanRef,
        message:
          'no controller of prod-eu-1 selects sharding.fluxcd.io/key=shard3',
        related: [],
      },
      {
        type: 'shard-over-capacity',
        severity: 'warning',
        shard: { cluster: 'prod-eu-1', instance: 'flux-system', shard: 'shard1' },
        message: 'shard1 of prod-eu-1/flux-system is at 130 % (measured)',
        related: [],
      },
      {
        type: 'upgrade-blocked',
        severity: 'error',
        instance: { cluster: 'prod-us-1', instance: 'flux-system' },
        message: 'the CRD of HelmRelease stores v2beta1, which Flux 2.7 removes',
        related: [],
      },
    ];
    const api = pageApi({
      getFindings: jest.fn(async () => findings),
      getObject: jest.fn(async () => objectDetail(fleetObject(orphanRef))),
    });
    await renderWithApis(<FluxFleetPageContent />, { api });
    await userEvent.click(screen.getByRole('tab', { name: 'Findings' }));
    const panel = await screen.findByTestId('flux-fleet-findings-panel');
    expect(
      within(panel)
        .getAllByRole('heading')
        .map(h => h.textContent),
    ).toEqual([
      'Orphan: no controller watches it (1) — inferred',
      'Upgrade blocked: run flux migrate first (1)',
      'Tenant without an enforced boundary (1)',
      'Shard over capacity (1)',
    ]);
    expect(screen.getByTestId('flux-fleet-findings-headline')).toHaveTextContent(
      '2 errors and 2 warnings; fix first: 1 object no controller watches, 1 instance whose upgrade is blocked.',
    );
    // a finding about an instance names it
    expect(
      within(screen.getByTestId('flux-fleet-findings-upgrade-blocked'))
        .getAllByRole('cell')
        .map(c => c.textContent),
    ).toEqual([
      'prod-us-1',
      'flux-systemFlux instance',
      'the CRD of HelmRelease stores v2beta1, which Flux 2.7 removes',
    ]);
    // each finding a row: its cluster, the object it is about with its kind, and why
    const orphanRows = within(screen.getByTestId('flux-fleet-findings-orphan')).getAllByRole('row');
    expect(orphanRows.map(row => within(row).queryAllByRole('cell').map(c => c.textContent))).toEqual([
      [],
      [
        'prod-eu-1',
        'team-shop/checkoutKustomization',
        'no controller of prod-eu-1 selects sharding.fluxcd.io/key=shard3',
      ],
    ]);

    await userEvent.click(
      within(panel).getByRole('button', {
        // the link's visible words within its name
        name: 'Details of prod-eu-1/Kustomization team-shop/checkout',
      }),
    );
    await screen.findByTestId('flux-fleet-detail');
    expect(api.getObject).toHaveBeenCalledWith(orphanRef);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));

    await userEvent.click(
      screen.getByRole('button', {
        name: 'Show objects: Orphan: no controller watches it',
      }),
    );
    await waitFor(() =>
      expect(lastObjectQuery(api)).toEqual({
        limit: 100,
        cursor: undefined,
        finding: ['orphan'],
      }),
    );

    // a finding about a shard leads to the shard's objects
    await userEvent.click(screen.getByRole('tab', { name: 'Findings' }));
    await screen.findByTestId('flux-fleet-findings-panel');
    await openShardObjects(
      api,
      within(screen.getByTestId('flux-fleet-findings-shard-over-capacity')).getByRole('button', {
        name: 'Objects of shard prod-eu-1/flux-system/shard1',
      }),
    );
  });

  it(
    'refreshes the visible tab in place when the fleet signals a change',
    async () => {
      const signals = new FakeSignalApi();
      const api = pageApi({
        getSummary: jest
          .fn()
          .mockResolvedValueOnce(summary())
          .mockResolvedValue(summary({ clustersUnreachable: 0 })),
        getClusters: jest
          .fn()
          .mockResolvedValueOnce([clusters[0], unreachableUs, clusters[2]])
          .mockResolvedValue(clusters),
      });
      await renderWithApis(<FluxFleetPageContent />, { api, signals });
      // the page opens on the overview; the clusters table is the next tab
      await userEvent.click(screen.getByRole('tab', { name: 'Clusters' }));
      await screen.findByTestId('flux-fleet-cluster-notice-prod-us-1');
      act(() =>
        signals.publish(SIGNAL_CHANNELS.fleet, {
          keys: [],
          at: '2026-07-14T10:20:00Z',
        }),
      );
      await waitFor(() =>
        expect(
          screen.queryByTestId('flux-fleet-cluster-notice-prod-us-1'),
        ).not.toBeInTheDocument(),
      );
      expect(screen.getByTestId('flux-fleet-summary')).toHaveTextContent(
        '3 clusters · 3 instances',
      );
      expect(api.getClusters).toHaveBeenCalledTimes(2);
      expect(screen.getByTestId('flux-fleet-clusters')).toBeInTheDocument();

      await userEvent.click(screen.getByRole('tab', { name: 'Objects' }));
      await screen.findByTestId('flux-fleet-page-range');
      await clickText('Next page');
      await waitFor(() => expect(lastObjectQuery(api).cursor).toBe('100'));
      const before = api.getObjects.mock.calls.length;
      act(() =>
        signals.publish(SIGNAL_CHANNELS.fleet, {
          keys: [],
          at: '2026-07-14T10:20:01Z',
        }),
      );
      // The current page is read again, with its cursor: the table stays where it was.
      await waitFor(() =>
        expect(api.getObjects.mock.calls.length).toBe(before + 1),
      );
      expect(lastObjectQuery(api)).toEqual({ limit: 100, cursor: '100' });
      expect(screen.getByTestId('flux-fleet-page-range')).toHaveTextContent(
        '101–200 of 100,000',
      );
    },
    BIG_TABLE_TIMEOUT_MS,
  );

  it('names what could not be read, keeps the rest working, and tries again on request', async () => {
    const api = pageApi({
      getClusters: jest
        .fn()
        .mockRejectedValueOnce(new Error('flux-fleet backend is restarting'))
        .mockResolvedValue(clusters),
      getInstances: jest.fn(async () => instances),
    });
    await renderWithApis(<FluxFleetPageContent />, { api });
    // the page opens on the overview; the clusters table is the next tab
    await userEvent.click(screen.getByRole('tab', { name: 'Clusters' }));
    const error = await screen.findByTestId('flux-fleet-error');
    expect(error).toHaveTextContent('Could not read the clusters');
    expect(error).toHaveTextContent('flux-fleet backend is restarting');
    await waitFor(() =>
      expect(screen.getByTestId('flux-fleet-summary')).toHaveTextContent(
        '100,000 Flux objects',
      ),
    );
    await userEvent.click(
      within(error).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByTestId('flux-fleet-clusters')).toHaveTextContent(
      'prod-eu-1',
    );
    expect(screen.queryByTestId('flux-fleet-error')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Objects' }));
    await waitFor(() =>
      expect(screen.getByTestId('flux-fleet-page-range')).toHaveTextContent(
        '1–100 of 100,000',
      ),
    );
  });
});
