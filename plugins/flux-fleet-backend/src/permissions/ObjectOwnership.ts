import type {
  AuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  EntityLink,
  entityLinkOf,
  EntityLinkTarget,
  matchesEntityLink,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';

/** How long the catalog's answer is reused: owners change rarely, and a permission check must not wait on it. */
const TTL_MS = 30_000;

/** What ownership reads of the index. */
export interface OwnershipIndex {
  tenants(): TenantSummary[];
  linkTarget(key: string): EntityLinkTarget | undefined;
}

/** What ownership needs to know of a Flux object. */
export interface OwnedObject {
  key: string;
  service: string | null;
  tenant: string | null;
}

interface Snapshot {
  /** kubernetes-id → owner refs of the Components linked by it. */
  byService: Map<string, string[]>;
  /** Components linked by a label selector, with their owner. */
  bySelector: Array<{ link: EntityLink; owner: string }>;
  /** tenant → its group (the tenant → group mapping). */
  tenantGroups: Map<string, string>;
}

/**
 * Who owns a Flux object, for the `IS_OWNED_BY` permission rule: the owners (`spec.owner`) of the catalog
 * Components it belongs to (rules §6: their `backstage.io/kubernetes-id`, else their name, or their label
 * selector), and the group of its tenant when a tenant → group mapping is configured. Refs are full and lower
 * case (`group:default/platform`), as Backstage's ownership refs are compared.
 *
 * The catalog is read with the plugin's own credentials, all Components at once, and kept for 30 s: a policy
 * decision over a whole page of objects costs no catalog request. When the catalog cannot be read, the last
 * answer is kept (none at first: nobody owns anything, so owner-based decisions deny) and a warning is logged.
 */
export class ObjectOwnership {
  private snapshot: Snapshot = { byService: new Map(), bySelector: [], tenantGroups: new Map() };
  private loadedAt = 0;
  private loading?: Promise<void>;

  constructor(
    private readonly catalog: CatalogService,
    private readonly auth: AuthService,
    private readonly index: OwnershipIndex,
    private readonly logger: LoggerService,
    private readonly ttlMs = TTL_MS,
  ) {}

  /** Reads the catalog again when the last answer is older than the TTL (one read at a time). */
  async refresh(): Promise<void> {
    if (Date.now() - this.loadedAt < this.ttlMs) return;
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }

  /** The owner refs of an object, from the last catalog answer; call {@link refresh} first. */
  ownersOf(object: OwnedObject): string[] {
    const { byService, bySelector, tenantGroups } = this.snapshot;
    const owners = new Set<string>(object.service ? byService.get(object.service) ?? [] : []);
    if (bySelector.length > 0) {
      const target = this.index.linkTarget(object.key);
      for (const { link, owner } of target ? bySelector : []) {
        if (matchesEntityLink(target!, link)) owners.add(owner);
      }
    }
    const group = object.tenant ? tenantGroups.get(object.tenant) : undefined;
    if (group) owners.add(group);
    return [...owners].sort();
  }

  private async load(): Promise<void> {
    try {
      const { items } = await this.catalog.getEntities(
        {
          filter: { kind: 'Component' },
          fields: ['kind', 'metadata.name', 'metadata.namespace', 'metadata.annotations', 'spec.owner'],
        },
        { credentials: await this.auth.getOwnServiceCredentials() },
      );
      const byService = new Map<string, string[]>();
      const bySelector: Snapshot['bySelector'] = [];
      for (const entity of items) {
        const owner = ownerRef(entity.spec?.owner, entity.metadata.namespace);
        if (!owner) continue;
        const link = entityLinkOf(entity);
        if (link.kubernetesId !== undefined) {
          byService.set(link.kubernetesId, [...(byService.get(link.kubernetesId) ?? []), owner]);
        }
        if (link.labelSelector !== undefined) bySelector.push({ link: { labelSelector: link.labelSelector }, owner });
      }
      const tenantGroups = new Map<string, string>();
      for (const tenant of this.index.tenants()) {
        const group = tenant.group && ownerRef(tenant.group, 'default');
        if (group) tenantGroups.set(tenant.name, group);
      }
      this.snapshot = { byService, bySelector, tenantGroups };
      this.loadedAt = Date.now();
    } catch (error) {
      // retried on the next decision; the last answer stays
      this.loadedAt = Date.now() - this.ttlMs + 5_000;
      this.logger.warn(
        `Flux Fleet could not read the owners of catalog Components (owner-based permission decisions use the last answer): ${error}`,
      );
    }
  }
}

/** A `spec.owner` as a full, lower-case entity ref (`platform` → `group:default/platform`). */
function ownerRef(owner: unknown, namespace: string | undefined): string | undefined {
  if (typeof owner !== 'string' || owner.trim() === '') return undefined;
  try {
    return stringifyEntityRef(
      parseEntityRef(owner, { defaultKind: 'Group', defaultNamespace: namespace ?? 'default' }),
    ).toLocaleLowerCase('en-US');
  } catch {
    return undefined;
  }
}
