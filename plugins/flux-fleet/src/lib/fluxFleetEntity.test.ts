import { isFluxFleetEntity } from './fluxFleetEntity';

describe('isFluxFleetEntity', () => {
  it('holds for components and Flux Fleet resources, including source types', () => {
    const entity = (kind: string, type: string) => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind,
      metadata: { name: 'x' },
      spec: { type },
    });
    expect(isFluxFleetEntity(entity('Component', 'website'))).toBe(true);
    expect(isFluxFleetEntity(entity('Resource', 'flux-gitrepository'))).toBe(
      true,
    );
    expect(isFluxFleetEntity(entity('Resource', 'kubernetes-cluster'))).toBe(
      true,
    );
    expect(isFluxFleetEntity(entity('Resource', 'database'))).toBe(false);
    expect(isFluxFleetEntity(entity('API', 'openapi'))).toBe(false);
  });
});
