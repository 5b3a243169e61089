import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { EntityLink, entityLinkOf } from '@flux-fleet/plugin-flux-fleet-common';

/** How long a catalog answer is reused. Annotations rarely change; the entity page re-asks on every signal. */
const TTL_MS = 30_000;
const MAX_ENTRIES = 5_000;

/** A catalog entity's ref and how it links to Flux objects. */
export interface LinkedEntity {
  entityRef: string;
  link: EntityLink;
}

/**
 * The link annotations of catalog entities, fetched with the caller's credentials and kept briefly per caller
 * and entity, so an entity page that refreshes on every signal costs no catalog request (the entity view then
 * answers from memory alone). Keyed by caller too: a caller only ever sees answers the catalog gave them.
 */
export class EntityLinkCache {
  private readonly entries = new Map<
    string,
    { value: LinkedEntity | undefined; expires: number }
  >();

  constructor(private readonly catalog: CatalogService) {}

  async linkOf(
    ref: { kind: string; namespace: string; name: string },
    credentials: BackstageCredentials,
  ): Promise<LinkedEntity | undefined> {
    const caller = principalOf(credentials);
    const key = `${caller}|${ref.kind}:${ref.namespace}/${ref.name}`.toLocaleLowerCase('en-US');
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expires > now) return cached.value;
    const entity = await this.catalog.getEntityByRef(ref, { credentials });
    const value = entity && {
      entityRef: stringifyEntityRef(entity),
      link: entityLinkOf(entity),
    };
    if (this.entries.size >= MAX_ENTRIES) {
      for (const [k, e] of this.entries) {
        if (e.expires <= now || this.entries.size >= MAX_ENTRIES) this.entries.delete(k);
        if (this.entries.size < MAX_ENTRIES / 2) break;
      }
    }
    this.entries.set(key, { value, expires: now + TTL_MS });
    return value;
  }
}

function principalOf(credentials: BackstageCredentials): string {
  const p = credentials.principal as { type?: string; userEntityRef?: string; subject?: string };
  return p.userEntityRef ?? p.subject ?? p.type ?? 'unknown';
}
