import { countShown } from './pageViews';

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
