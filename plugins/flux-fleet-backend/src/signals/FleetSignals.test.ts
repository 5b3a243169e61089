import { mockServices } from '@backstage/backend-test-utils';
import type { SignalPayload } from '@backstage/plugin-signals-node';
import type { EntityLinkTarget } from '@flux-fleet/plugin-flux-fleet-common';
import { CoalescingPublisher } from './CoalescingPublisher';
import { FleetSignals } from './FleetSignals';

function fakeSignals() {
  const sent: Array<{ at: number; channel: string; keys: string[]; truncated?: boolean }> = [];
  return {
    sent,
    service: {
      async publish(signal: SignalPayload) {
        const message = signal.message as { keys: string[]; truncated?: boolean };
        sent.push({
          at: Date.now(),
          channel: signal.channel,
          keys: message.keys,
          truncated: message.truncated,
        });
      },
    },
  };
}

describe('CoalescingPublisher', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the first change at once and gathers the rest of the window into one message', () => {
    const signals = fakeSignals();
    const publisher = new CoalescingPublisher(signals.service, mockServices.logger.mock(), 200);
    publisher.publish('flux-fleet:fleet', ['a']);
    expect(signals.sent.map(s => s.keys)).toEqual([['a']]);
    for (const key of ['b', 'c', 'b', 'd']) {
      jest.advanceTimersByTime(30);
      publisher.publish('flux-fleet:fleet', [key]);
    }
    expect(signals.sent).toHaveLength(1);
    jest.advanceTimersByTime(200);
    expect(signals.sent.map(s => s.keys)).toEqual([['a'], ['b', 'c', 'd']]);
    // at most one message per channel per window
    expect(signals.sent[1].at - signals.sent[0].at).toBeGreaterThanOrEqual(200);
    publisher.close();
  });

  it('sends a change that comes inside a window within 100 ms by default', () => {
    const signals = fakeSignals();
    const publisher = new CoalescingPublisher(signals.service, mockServices.logger.mock());
    publisher.publish('flux-fleet:entity:component:default/payments', ['a']);
    jest.advanceTimersByTime(10);
    publisher.publish('flux-fleet:entity:component:default/payments', ['b']);
    // 100 ms after the first: what an open page's freshness is built on (the guide's 208 ms p99 bar)
    jest.advanceTimersByTime(90);
    expect(signals.sent.map(s => s.keys)).toEqual([['a'], ['b']]);
    publisher.close();
  });

  it('keeps channels apart and cuts long key lists', () => {
    const signals = fakeSignals();
    const publisher = new CoalescingPublisher(signals.service, mockServices.logger.mock(), 200);
    const keys = Array.from({ length: 450 }, (_, i) => `k${i}`);
    publisher.publish('one', keys);
    publisher.publish('two', ['x']);
    expect(signals.sent.map(s => [s.channel, s.keys.length, s.truncated])).toEqual([
      ['one', 200, true],
      ['two', 1, undefined],
    ]);
    publisher.close();
  });
});

describe('FleetSignals', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const targets = new Map<string, EntityLinkTarget>([
    ['c/ns/Kustomization/checkout', { labels: { app: 'checkout' }, service: 'checkout' }],
    ['c/ns/Kustomization/payments', { labels: { team: 'pay' }, service: 'payments' }],
  ]);

  function setup(linkTarget = (key: string) => targets.get(key)) {
    const signals = fakeSignals();
    const fleet = new FleetSignals(signals.service, mockServices.logger.mock(), { linkTarget });
    return { signals, fleet };
  }

  it('tells the fleet channel about every change, and an entity only about its own objects', () => {
    const { signals, fleet } = setup();
    fleet.entityViewed('component:default/checkout', { kubernetesId: 'checkout' });
    fleet.entityViewed('component:default/payments', { kubernetesId: 'payments' });
    fleet.onChanges([
      { cluster: 'c', keys: ['c/ns/Kustomization/checkout'], structural: false },
    ]);
    expect(signals.sent.map(s => [s.channel, s.keys])).toEqual([
      ['flux-fleet:fleet', ['c/ns/Kustomization/checkout']],
      ['flux-fleet:entity:component:default/checkout', ['c/ns/Kustomization/checkout']],
    ]);
    fleet.close();
  });

  it("tells the fleet and the cluster's services' open entity pages when a cluster's health changes", () => {
    const { signals, fleet } = setup();
    fleet.entityViewed('component:default/checkout', { kubernetesId: 'checkout' });
    fleet.entityViewed('component:default/payments', { kubernetesId: 'payments' });
    // a change naming no object: the cluster went from lagging to unreachable, say (its notice changes)
    fleet.onChanges([{ cluster: 'c', keys: [], structural: false, services: ['checkout'] }]);
    expect(signals.sent.map(s => [s.channel, s.keys])).toEqual([
      ['flux-fleet:fleet', []],
      ['flux-fleet:entity:component:default/checkout', []],
    ]);
    fleet.close();
  });

  it('reaches entities linked by label selector, and entities whose object left them', () => {
    const { signals, fleet } = setup();
    fleet.entityViewed('component:default/team-pay', { labelSelector: 'team=pay' });
    fleet.entityViewed('component:default/orders', { kubernetesId: 'orders' });
    fleet.onChanges([
      {
        cluster: 'c',
        keys: ['c/ns/Kustomization/payments', 'c/ns/Kustomization/gone'],
        structural: true,
        // the removed object belonged to `orders`
        services: ['payments', 'orders'],
      },
    ]);
    expect(signals.sent.map(s => s.channel).sort()).toEqual([
      'flux-fleet:entity:component:default/orders',
      'flux-fleet:entity:component:default/team-pay',
      'flux-fleet:fleet',
    ]);
    fleet.close();
  });

  it('publishes an object channel only for objects whose detail was viewed', () => {
    const { signals, fleet } = setup();
    fleet.objectViewed('c/ns/Kustomization/payments');
    fleet.onChanges([
      {
        cluster: 'c',
        keys: ['c/ns/Kustomization/payments', 'c/ns/Kustomization/checkout'],
        structural: false,
      },
    ]);
    expect(signals.sent.map(s => s.channel)).toEqual([
      'flux-fleet:fleet',
      'flux-fleet:object:c/ns/Kustomization/payments',
    ]);
    fleet.close();
  });

  it('tells the open details, service and selector pages of a cluster that became stale, without naming its objects', () => {
    const lookups: string[] = [];
    const { signals, fleet } = setup(key => {
      lookups.push(key);
      return undefined;
    });
    fleet.objectViewed('c/ns/Kustomization/payments');
    fleet.objectViewed('other/ns/Kustomization/payments');
    fleet.entityViewed('component:default/checkout', { kubernetesId: 'checkout' });
    fleet.entityViewed('component:default/team-pay', { labelSelector: 'team=pay' });
    fleet.onChanges([{ cluster: 'c', keys: [], structural: false, everyObject: true, services: ['checkout'] }]);
    expect(signals.sent.map(s => s.channel).sort()).toEqual([
      'flux-fleet:entity:component:default/checkout',
      'flux-fleet:entity:component:default/team-pay',
      'flux-fleet:fleet',
      'flux-fleet:object:c/ns/Kustomization/payments',
    ]);
    expect(lookups).toEqual([]);
    fleet.close();
  });
});
