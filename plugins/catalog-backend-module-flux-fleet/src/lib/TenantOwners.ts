import {
  KubernetesValidatorFunctions,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import type { TenantSummary } from '@flux-fleet/plugin-flux-fleet-common';

/** The owner options of a provider (see `config.d.ts`). */
export interface TenantOwnerOptions {
  defaultOwner: string;
  tenantOwners: Record<string, string>;
  tenantOwnerPattern?: string;
}

/**
 * Answers which catalog entity owns a tenant's Flux objects: the provider's `tenantOwners` entry, else the group the
 * backend's tenant mapping (`fluxFleet.tenants`) gives the tenant, else `tenantOwnerPattern`, else `defaultOwner`.
 */
export class TenantOwners {
  private readonly backendGroups: Map<string, string>;

  constructor(
    private readonly options: TenantOwnerOptions,
    tenants: TenantSummary[],
  ) {
    this.backendGroups = new Map();
    for (const tenant of tenants) {
      const group = tenant.group && toGroupRef(tenant.group);
      if (group) this.backendGroups.set(tenant.name, group);
    }
  }

  /** The owner of objects of a tenant; `defaultOwner` for null. */
  ownerOf(tenant: string | null): string {
    if (tenant === null) return this.options.defaultOwner;
    const configured =
      this.options.tenantOwners[tenant] ?? this.backendGroups.get(tenant);
    if (configured) return configured;
    if (this.options.tenantOwnerPattern) {
      const fromPattern = toGroupRef(
        this.options.tenantOwnerPattern.replaceAll('{tenant}', tenant),
      );
      if (fromPattern) return fromPattern;
    }
    return this.options.defaultOwner;
  }

  /** The owner of entities not about one tenant (clusters, instances, shards). */
  get defaultOwner(): string {
    return this.options.defaultOwner;
  }
}

/** A full entity reference, or undefined when the value is not a valid one (a tenant name with odd characters). */
function toGroupRef(value: string): string | undefined {
  try {
    const ref = parseEntityRef(value, {
      defaultKind: 'group',
      defaultNamespace: 'default',
    });
    return KubernetesValidatorFunctions.isValidObjectName(ref.name)
      ? stringifyEntityRef(ref)
      : undefined;
  } catch {
    return undefined;
  }
}
