import { freshObjects } from '../fixtures/shardingScenario';
import { groupObjects } from './shardGroups';

describe('groupObjects', () => {
  it('keeps a source with its reconcilers, dependsOn chains, a HelmRelease with its generated HelmChart, image automation with its repository', () => {
    const objects = freshObjects();
    const groups = groupObjects(objects).map(g => ({
      root: `${objects[g.root].kind} ${objects[g.root].namespace}/${
        objects[g.root].name
      }`,
      size: g.members.length,
      members: g.members.map(
        m => `${objects[m].kind} ${objects[m].namespace}/${objects[m].name}`,
      ),
    }));
    expect(groups.map(g => [g.root, g.size])).toEqual([
      ['GitRepository team-b/apps', 20],
      ['GitRepository team-a/apps', 14],
      ['HelmRepository flux-system/charts', 3],
      ['ImageRepository team-a/api', 2],
      ['OCIRepository team-e/podinfo', 2],
    ]);
    expect(groups[1].members).toContain('ImageUpdateAutomation team-a/bump');
    expect(groups[2].members).toEqual([
      'HelmRepository flux-system/charts',
      'HelmChart flux-system/team-d-redis',
      'HelmRelease team-d/redis',
    ]);
  });
});
