import { TenantSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { tenantsHeadline } from './tenantsHeadline';

const tenant = (
  name: string,
  weakestEnforcement: TenantSummary['weakestEnforcement'],
  group?: string,
  objectCount = 10,
): TenantSummary => ({
  name,
  group,
  namespaces: [],
  shards: [],
  objectCount,
  countsByEnforcement: { [weakestEnforcement]: objectCount },
  weakestEnforcement,
});

describe('tenantsHeadline', () => {
  it.each<[string, TenantSummary[], string]>([
    [
      'none: what to do',
      [],
      'No tenants: label namespaces with toolkit.fluxcd.io/tenant, or map them to tenants in fluxFleet.tenants.',
    ],
    [
      'no boundary named first, sorted, the rest counted; groups partly set',
      [
        tenant('growth', 'none', 'group:default/growth', 1_000),
        tenant('content', 'none'),
        tenant('data', 'none', 'group:default/data'),
        tenant('ml', 'none', 'group:default/ml'),
        tenant('payments', 'partial', 'group:default/payments'),
      ],
      '5 tenants own 1,040 Flux objects; 4 have objects with no enforced boundary: content, data, growth and 1 more. 1 has no owning group.',
    ],
    [
      'partial only, no group anywhere: where to set one',
      [tenant('payments', 'partial'), tenant('ml', 'enforced')],
      '2 tenants own 20 Flux objects; 1 has a boundary only partly enforced: payments. No tenant has an owning group: set one with fluxFleet.tenants[].group.',
    ],
    [
      'every tenant without a boundary or a group: no names, which would be the whole table',
      [tenant('content', 'none'), tenant('data', 'none'), tenant('growth', 'none'), tenant('ml', 'none')],
      '4 tenants own 40 Flux objects; all 4 have objects with no enforced boundary. No tenant has an owning group: set one with fluxFleet.tenants[].group.',
    ],
    [
      'every tenant partly enforced',
      [tenant('payments', 'partial', 'group:default/payments'), tenant('ml', 'partial', 'group:default/ml')],
      '2 tenants own 20 Flux objects; both have a boundary only partly enforced.',
    ],
    [
      'one tenant, enforced, with its group',
      [tenant('payments', 'enforced', 'group:default/payments', 1)],
      '1 tenant owns 1 Flux object; its boundary is enforced.',
    ],
  ])('%s', (_, tenants, expected) => {
    expect(tenantsHeadline(tenants)).toBe(expected);
  });
});
