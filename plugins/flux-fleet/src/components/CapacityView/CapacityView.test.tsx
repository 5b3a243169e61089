import type {
  CapacityReason,
  ControllerCapacity,
  InstanceCapacity,
  ShardingPlan,
} from '@flux-fleet/plugin-flux-fleet-common';
import { SIGNAL_CHANNELS } from '@flux-fleet/plugin-flux-fleet-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeSignalApi } from '../../__testUtils__/fakeSignalApi';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { CapacityView } from './CapacityView';

function controller(
  instanceName: string,
  name: string,
  verdict: ControllerCapacity['verdict'],
  utilisation: number,
  reasons: CapacityReason[],
  measured = true,
): ControllerCapacity {
  const source = measured ? 'measured' : 'estimated';
  return {
    cluster: 'staging',
    instance: instanceName,
    shard: 'main',
    controller: name,
    component: 'kustomize-controller',
    source: measured ? 'metrics' : 'estimate',
    ...(measured ? {} : { estimateReason: 'pod proxy: the credentials lack get on pods/proxy' }),
    objectCount: 120,
    countsByKind: { Kustomization: 120 },
    figures: {
      concurrent: { value: 4, source: 'configured' },
      utilisation: { value: utilisation, source },
      ...(measured ? { queueWaitP95Seconds: { value: 42, source } } : {}),
    },
    estimatedBusyWorkers: utilisation * 4,
    verdict,
    reasons,
    problems: [],
  };
}

function instance(name: string, verdict: InstanceCapacity['verdict'], answer: string, c: ControllerCapacity) {
  const i: InstanceCapacity = {
    cluster: 'staging',
    instance: name,
    operatorManaged: false,
    verdict,
    answer,
    advice: verdict === 'over-capacity' ? 'shard' : 'none',
    source: c.source,
    shards: [],
    controllers: [c],
  };
  return i;
}

const reason = (code: CapacityReason['code'], effect: CapacityReason['effect'], text: string, source: CapacityReason['source'] = 'measured'): CapacityReason => ({
  code,
  effect,
  text,
  source,
});

const report = {
  generatedAt: '2026-07-14T10:20:00Z',
  items: [
    instance(
      'flux-ok',
      'ok',
      'No: kustomize-controller is 23 % busy, room for about 6,000 more objects.',
      {
        ...controller('flux-ok', 'kustomize-controller', 'ok', 0.23, [
          reason('utilisation-low', 'ok', 'utilisation 23 % is below 70 %'),
        ]),
        headroomObjects: 6_100,
        headroomText: 'about 6,000',
      },
    ),
    instance(
      'flux-near',
      'near-capacity',
      'Nearly: helm-controller is 82 % busy.',
      controller('flux-near', 'helm-controller', 'near-capacity', 0.82, [
        reason('utilisation-near', 'near-capacity', 'utilisation 82 % is at or above 70 %'),
      ]),
    ),
    instance(
      'flux-system',
      'over-capacity',
      'Yes: kustomize-controller is over capacity (140 %), shard it.',
      controller('flux-system', 'kustomize-controller', 'over-capacity', 1.4, [
        reason('utilisation-over', 'over-capacity', 'utilisation 140 % is at or above 95 %'),
        reason('queue-growing', 'over-capacity', 'the queue grows by 30 items a minute'),
      ]),
    ),
    instance(
      'team-ml',
      'ok',
      'No: kustomize-controller is an estimated 12 % busy.',
      controller(
        'team-ml',
        'kustomize-controller',
        'ok',
        0.12,
        [reason('utilisation-low', 'ok', 'utilisation 12 % is below 70 %', 'estimated')],
        false,
      ),
    ),
  ],
};

const plan: ShardingPlan = {
  cluster: 'staging',
  instance: 'flux-system',
  operatorManaged: false,
  shardKey: 'sharding.fluxcd.io/key',
  source: 'metrics',
  summary: 'Two shards bring kustomize-controller from 140 % to 47 % and 46 %, moving 12 groups.',
  shards: [
    { name: 'main', existing: true, groupCount: 12, objectCount: 60, controllers: [], utilisation: 0.47 },
    { name: 'shard1', existing: false, groupCount: 12, objectCount: 60, controllers: [], utilisation: 0.46 },
  ],
  groups: [],
  movedGroups: 12,
  labelChanges: [
    { object: { cluster: 'staging', namespace: 'team-a', kind: 'Kustomization', name: 'apps' }, from: 'main', to: 'shard1' },
  ],
  commands: ['kubectl label -n team-a kustomizations.kustomize.toolkit.fluxcd.io apps sharding.fluxcd.io/key=shard1 --overwrite'],
  kustomizePatch: 'patches: []\n',
  notes: [],
};

async function renderView() {
  const api = fakeFluxFleetApi({
    getCapacity: jest.fn(async () => report),
    getCapacityPlan: jest.fn(async () => plan),
  });
  await renderWithApis(<CapacityView />, { api });
  return api;
}

describe('CapacityView', () => {
  it('answers an ok instance in one sentence with its measured figures', async () => {
    await renderView();
    const card = within(await screen.findByTestId('capacity-instance-staging-flux-ok'));
    expect(card.getByText(/No: kustomize-controller is 23 % busy/)).toBeInTheDocument();
    expect(card.getAllByText('ok').length).toBeGreaterThan(0);
    expect(card.getByText('23 %')).toBeInTheDocument();
    expect(card.getAllByText('measured').length).toBeGreaterThan(0);
  });

  it('gives a near and an over instance their verdicts and every reason', async () => {
    await renderView();
    const near = within(await screen.findByTestId('capacity-instance-staging-flux-near'));
    expect(near.getAllByText('near capacity').length).toBeGreaterThan(0);
    expect(near.getByText(/utilisation 82 % is at or above 70 %/)).toBeInTheDocument();
    const over = within(screen.getByTestId('capacity-instance-staging-flux-system'));
    expect(over.getAllByText('over capacity').length).toBeGreaterThan(0);
    expect(over.getByText(/utilisation 140 % is at or above 95 %/)).toBeInTheDocument();
    expect(over.getByText(/the queue grows by 30 items a minute/)).toBeInTheDocument();
  });

  it('marks estimated figures and says why they are estimated', async () => {
    await renderView();
    const card = within(await screen.findByTestId('capacity-instance-staging-team-ml'));
    expect(card.getAllByText('estimated').length).toBeGreaterThan(0);
    expect(card.queryByText('measured')).not.toBeInTheDocument();
    expect(card.getByText(/credentials lack get on pods\/proxy/)).toBeInTheDocument();
  });

  it("shows the over instance's plan: predicted utilisation per shard and the commands to copy", async () => {
    const api = await renderView();
    const panel = within(await screen.findByTestId('capacity-plan-staging-flux-system'));
    expect(api.getCapacityPlan).toHaveBeenCalledWith({ cluster: 'staging', instance: 'flux-system' });
    expect(panel.getByText(/Two shards bring kustomize-controller/)).toBeInTheDocument();
    expect(panel.getByText('shard1 (new)')).toBeInTheDocument();
    expect(panel.getByText('46 %')).toBeInTheDocument();
    expect(panel.getAllByText(/kubectl label -n team-a/).length).toBeGreaterThan(0);
    expect(panel.getByRole('link', { name: 'Download the kustomize patch' })).toHaveAttribute(
      'download',
      'staging-flux-system-sharding-patch.yaml',
    );
  });

  it('opens the plan of an instance whose advice turns to shard once measured, unless the reader closed it', async () => {
    // the first answer is the first sync's estimate (ok); the measured one that follows says shard
    const over = report.items[2];
    const estimated: InstanceCapacity = { ...over, verdict: 'ok', advice: 'none', answer: 'No: an estimated 40 % busy.' };
    const getCapacity = jest
      .fn()
      .mockResolvedValueOnce({ ...report, items: [estimated] })
      .mockResolvedValue({ ...report, items: [over] });
    const api = fakeFluxFleetApi({ getCapacity, getCapacityPlan: jest.fn(async () => plan) });
    const signals = new FakeSignalApi();
    await renderWithApis(<CapacityView />, { api, signals });
    const card = within(await screen.findByTestId('capacity-instance-staging-flux-system'));
    expect(card.getByText('No: an estimated 40 % busy.')).toBeInTheDocument();
    expect(screen.queryByTestId('capacity-plan-staging-flux-system')).not.toBeInTheDocument();

    act(() => signals.publish(SIGNAL_CHANNELS.capacity, { at: '2026-07-14T10:21:00Z' }));
    expect(await screen.findByTestId('capacity-plan-staging-flux-system')).toBeInTheDocument();
    expect(card.getByText(/Yes: kustomize-controller is over capacity/)).toBeInTheDocument();

    // closed by the reader: a later answer with the same advice leaves it closed
    await userEvent.click(card.getByRole('button', { name: 'Hide the sharding plan' }));
    act(() => signals.publish(SIGNAL_CHANNELS.capacity, { at: '2026-07-14T10:22:00Z' }));
    await waitFor(() => expect(getCapacity).toHaveBeenCalledTimes(3));
    expect(screen.queryByTestId('capacity-plan-staging-flux-system')).not.toBeInTheDocument();
  });

  it("keeps names, verdicts and figures whole, with each controller's reasons in a row under its figures", async () => {
    await renderView();
    const card = within(await screen.findByTestId('capacity-instance-staging-flux-ok'));
    // jsdom lays nothing out: the cells that must not break carry the no-wrap style the browser test checks at 1280 px
    for (const text of ['kustomize-controller', '23 %']) {
      expect(getComputedStyle(card.getByText(text).closest('td')!).whiteSpace).toBe('nowrap');
    }
    expect(card.getByRole('columnheader', { name: 'Headroom (objects)' })).toBeInTheDocument();
    expect(card.getByText('about 6,000')).toBeInTheDocument();
    const rows = card.getAllByRole('row');
    const figures = rows.findIndex(r => within(r).queryByText('kustomize-controller'));
    expect(within(rows[figures + 1]).getByText(/utilisation 23 % is below 70 %/)).toBeInTheDocument();
  });

  it('leads with how many instances are over or near capacity, and shows the worst first', async () => {
    await renderView();
    expect(await screen.findByTestId('capacity-headline')).toHaveTextContent(
      '1 over capacity and 1 near capacity of 4 Flux instances, worst first.',
    );
    const cards = screen.getAllByTestId(/^capacity-instance-/).map(c => c.getAttribute('data-testid'));
    // the API's order is flux-ok, flux-near, flux-system (over), team-ml
    expect(cards).toEqual([
      'capacity-instance-staging-flux-system',
      'capacity-instance-staging-flux-near',
      'capacity-instance-staging-flux-ok',
      'capacity-instance-staging-team-ml',
    ]);
  });

  it('says what to configure when the fleet has no instance', async () => {
    const api = fakeFluxFleetApi({ getCapacity: jest.fn(async () => ({ items: [], generatedAt: 'x' })) });
    await renderWithApis(<CapacityView />, { api });
    expect(await screen.findByText('No Flux instance found yet')).toBeInTheDocument();
    expect(screen.getByText('pods/proxy')).toBeInTheDocument();
    expect(screen.getByText('fluxFleet.capacity.prometheus')).toBeInTheDocument();
  });
});
