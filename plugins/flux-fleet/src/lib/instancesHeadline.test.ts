import { InstanceSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { instancesHeadline } from './instancesHeadline';

const instance = (
  cluster: string,
  name: string,
  controllers: Array<{ selectorError?: string; problems?: string[] }> = [{}],
): InstanceSummary =>
  ({
    cluster,
    name,
    shards: ['main'],
    objectCount: 1,
    controllers: controllers.map((c, n) => ({ name: `controller-${n}`, ...c })),
  }) as unknown as InstanceSummary;

describe('instancesHeadline', () => {
  it.each<[string, InstanceSummary[], number, string]>([
    [
      'no problem',
      [instance('a', 'flux-system'), instance('b', 'flux-system'), instance('b', 'team-ml')],
      5,
      '3 Flux instances on 2 clusters run 5 shards; no controller reports a problem.',
    ],
    ['one of each', [instance('a', 'flux-system')], 1, '1 Flux instance on 1 cluster runs 1 shard; no controller reports a problem.'],
    [
      'a selector that does not parse and a problem found, each instance named once',
      [
        instance('a', 'flux-system', [{ selectorError: 'unclosed parenthesis' }, { problems: ['no --watch-label-selector'] }]),
        instance('b', 'flux-system'),
        instance('c', 'flux-system', [{ problems: ['two controllers select the same objects'] }]),
      ],
      4,
      '3 Flux instances on 3 clusters run 4 shards; controllers of a/flux-system, c/flux-system have problems (below).',
    ],
    [
      'three named, the rest counted',
      ['a', 'b', 'c', 'd'].map(c => instance(c, 'flux-system', [{ problems: ['x'] }])),
      4,
      '4 Flux instances on 4 clusters run 4 shards; controllers of a/flux-system, b/flux-system, c/flux-system and 1 more have problems (below).',
    ],
  ])('%s', (_, instances, shards, expected) => {
    expect(instancesHeadline(instances, shards)).toBe(expected);
  });
});
