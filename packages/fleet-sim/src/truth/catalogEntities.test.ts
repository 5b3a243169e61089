import { parseAllDocuments } from 'yaml';
import type { GroundTruth, TruthObject } from './groundTruth';
import { catalogEntities, teamsOfServices } from './catalogEntities';

const object = (
  service: string | null,
  tenant: string | null,
  name = service ?? 'x',
): TruthObject => ({
  cluster: 'prod-eu-1',
  kind: 'Kustomization',
  namespace: tenant ? `team-${tenant}` : 'flux-system',
  name,
  instance: 'flux-system',
  shard: 'main',
  owner: 'ok',
  state: 'ready',
  tenant,
  serviceAccount: null,
  boundary: 'enforced',
  service,
});

const truth: GroundTruth = {
  controllers: [],
  clusters: [],
  findings: [],
  malformed: [],
  objects: [
    object('cms', 'content'),
    object('cms', 'content', 'cms-2'),
    object('cms', 'data', 'cms-3'),
    object('checkout', 'shop'),
    object('ingress', null),
    object(null, 'content', 'flux-system'),
  ],
};

describe('the demo catalog written with the truth', () => {
  it('owns each service by the tenant of most of its objects, else by the platform team', () => {
    expect([...teamsOfServices(truth)]).toEqual([
      ['cms', 'content'],
      ['checkout', 'shop'],
      ['ingress', 'platform'],
    ]);
  });

  it('writes a Group per team and a Component per service, leaving out the names defined elsewhere', () => {
    const docs = parseAllDocuments(
      catalogEntities(truth, { skip: new Set(['checkout', 'shop']) }),
    ).map(d => d.toJS());
    expect(docs.map(d => `${d.kind}:${d.metadata.name}`)).toEqual([
      'Group:content',
      'Component:cms',
      'Component:ingress',
    ]);
    expect(docs[1]).toMatchObject({
      metadata: { annotations: { 'backstage.io/kubernetes-id': 'cms' } },
      spec: { owner: 'group:default/content', type: 'service' },
    });
    expect(docs[2].spec.owner).toBe('group:default/platform');
  });
});
