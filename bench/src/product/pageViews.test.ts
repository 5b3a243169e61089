import type { BackendClient, TimedAnswer } from './backendClient';
import { countShown, pageViewers } from './pageViews';

describe('countShown', () => {
  it("counts the Flux objects of Flux Fleet's entity view", () => {
    expect(countShown('fluxFleet', { objects: [{}, {}, {}] })).toEqual({
      fluxObjects: 3,
      clusterErrors: 0,
    });
  });

  it("counts custom resources and errors across the clusters of the Kubernetes plugin's answer", () => {
    const answer = {
      items: [
        {
          resources: [
            { type: 'deployments', resources: [{}] },
            { type: 'customresources', resources: [{}, {}] },
            { type: 'customresources', resources: [{}] },
          ],
          errors: [{ statusCode: 404 }],
        },
        { resources: [], errors: [{ statusCode: 404 }, { statusCode: 404 }] },
      ],
    };
    expect(countShown('kubernetesTab', answer)).toEqual({
      fluxObjects: 3,
      clusterErrors: 3,
    });
  });

  it('adds up the answers of both Flux cards, and reads a missing answer as nothing', () => {
    const card = {
      items: [
        {
          resources: [{ type: 'customresources', resources: [{}] }],
          errors: [],
        },
      ],
    };
    expect(countShown('fluxCards', [card, card])).toEqual({
      fluxObjects: 2,
      clusterErrors: 0,
    });
    expect(countShown('fluxCards', [undefined, card])).toEqual({
      fluxObjects: 1,
      clusterErrors: 0,
    });
  });
});

describe("the community Flux cards' page view", () => {
  const card = (plural: string) => ({
    items: [
      {
        resources: [{ type: 'customresources', resources: [{ kind: plural }] }],
        errors: [],
      },
    ],
  });
  const client = {
    get: async () => ({ kind: 'Component', metadata: { name: 'checkout' } }),
    call: async (
      _path: string,
      options: { body: { customResources: Array<{ plural: string }> } },
    ) => {
      const deployments = options.body.customResources.some(
        r => r.plural === 'kustomizations',
      );
      return {
        status: deployments ? 200 : 503,
        ms: deployments ? 40 : 90,
        body: card(options.body.customResources[0].plural),
      } as TimedAnswer;
    },
  } as unknown as BackendClient;

  it('lasts as long as the slower card, fails when one card fails, and shows what both cards show', async () => {
    const viewers = await pageViewers(client, ['checkout']);
    const answer = await viewers.fluxCards('checkout', 1_000);
    expect([answer.ms, answer.status]).toEqual([90, 503]);
    expect(countShown('fluxCards', answer.body)).toEqual({
      fluxObjects: 2,
      clusterErrors: 0,
    });
  });
});
