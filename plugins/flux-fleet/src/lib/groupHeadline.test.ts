import { FleetObject, ReconcileStateName } from '@flux-fleet/plugin-flux-fleet-common';
import { groupHeadline } from './groupHeadline';

type Read = Pick<FleetObject, 'state' | 'service' | 'ref'>;
const object = (state: ReconcileStateName, cluster: string, service: string | null): Read => ({
  state: { state },
  service,
  ref: { cluster, namespace: 'team', kind: 'Kustomization', name: service ?? 'x' },
});

describe('groupHeadline', () => {
  it.each<[string, Read[], number, string]>([
    [
      'nothing in trouble',
      [object('ready', 'a', 'cms'), object('progressing', 'b', 'cms')],
      2,
      "None of the team's 2 Flux objects failed, blocked or stalled.",
    ],
    [
      'services most affected first, the rest counted',
      [
        object('failed', 'a', 'translations'),
        object('blocked', 'b', 'image-resizer'),
        object('stalled', 'a', 'image-resizer'),
        object('failed', 'a', 'cms'),
        object('failed', 'a', 'search'),
        object('ready', 'a', 'cms'),
      ],
      6,
      "5 of the team's 6 Flux objects failed, blocked or stalled, on 2 clusters: services image-resizer, cms, search and 1 more.",
    ],
    [
      'one cluster, one service; objects without a service are counted, not named',
      [object('failed', 'prod', 'cms'), object('failed', 'prod', null), object('ready', 'prod', 'cms')],
      3,
      "2 of the team's 3 Flux objects failed, blocked or stalled, on prod: service cms.",
    ],
    [
      'fewer read than the team has: said',
      [object('failed', 'prod', 'cms'), object('ready', 'prod', 'cms')],
      450,
      '1 of the 2 Flux objects read (the team has 450) failed, blocked or stalled, on prod: service cms.',
    ],
  ])('%s', (_, objects, totalCount, expected) => {
    expect(groupHeadline(objects, totalCount)).toBe(expected);
  });
});
