import type {
  AuthService,
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { EntityLink, entityLinkOf } from '@flux-fleet/plugin-flux-fleet-common';
import type { EntityReadDecision } from '../permissions/ReadAccess';

/**
 * An answer younger than this is served as it is. Link annotations change seldom (a catalog edit, then the
 * catalog's own processing), while a re-read costs the catalog a request and this process a token: once a minute
 * per entity at most.
 */
const FRESH_MS = 60_000;
/** An older answer, up to this age, is served at once and read again in the background. */
const MAX_AGE_MS = 10 * 60_000;
const MAX_ENTRIES = 5_000;

/** A catalog entity's ref and how it links to Flux objects. */
export interface LinkedEntity {
  entityRef: string;
  link: EntityLink;
}

/** What the cache needs to know of the caller. */
export interface EntityReadAccess {
  /** What the caller may read of catalog entities (`catalog.entity.read`). */
  entitiesFor(credentials: BackstageCredentials): Promise<EntityReadDecision>;
}

interface Entry {
  value: LinkedEntity | undefined;
  readAt: number;
  /** A read of the catalog under way, for a miss or a refresh. */
  reading?: Promise<LinkedEntity | undefined>;
}

/**
 * The link annotations of catalog entities (rules §6), read from the catalog and kept in memory, so that an entity
 * view, which its page asks again on every signal, costs no catalog request. The catalog stays the source of
 * truth: an answer is served as it is for {@link FRESH_MS}; an older one (up to {@link MAX_AGE_MS}) is served at
 * once and read again in the background, and when the entity's link changed (or the entity is gone) `onChange`
 * says so, so that open pages of the entity ask again.
 *
 * The catalog's own read permission is honoured per caller. Answers read with the plugin's own credentials are
 * shared by every caller whose `catalog.entity.read` decision is an unconditional allow: the catalog would show
 * them every entity, so the shared answer is the one it would give them. A caller denied that permission is told
 * nothing exists (the catalog would answer them 404). A caller with a conditional decision gets answers read with
 * their own credentials and kept for them alone, since only the catalog can evaluate the policy's conditions.
 */
export class EntityLinkCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: {
      catalog: CatalogService;
      auth: AuthService;
      access: EntityReadAccess;
      logger: LoggerService;
      /** An entity's link changed (`undefined`: it is gone) since it was last served. */
      onChange?: (entityRef: string, link: EntityLink | undefined) => void;
      now?: () => number;
    },
  ) {}

  /** The entity with its link, or undefined when the catalog does not show it to the caller. */
  async linkOf(
    ref: { kind: string; namespace: string; name: string },
    credentials: BackstageCredentials,
  ): Promise<LinkedEntity | undefined> {
    const decision = await this.options.access.entitiesFor(credentials);
    if (decision === 'none') return undefined;
    const entityKey = `${ref.kind}:${ref.namespace}/${ref.name}`.toLocaleLowerCase('en-US');
    if (decision === 'all') {
      return this.cached(`*|${entityKey}`, async () =>
        this.read(ref, await this.options.auth.getOwnServiceCredentials()),
      );
    }
    return this.cached(`${callerOf(credentials)}|${entityKey}`, () => this.read(ref, credentials));
  }

  private async cached(
    key: string,
    read: () => Promise<LinkedEntity | undefined>,
  ): Promise<LinkedEntity | undefined> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.readAt < MAX_AGE_MS) {
      if (now - entry.readAt >= FRESH_MS && !entry.reading) this.refresh(key, entry, read);
      return entry.value;
    }
    if (entry?.reading) return entry.reading;
    const reading = read();
    const pending: Entry = { value: undefined, readAt: -Infinity, reading };
    this.entries.set(key, pending);
    try {
      const value = await reading;
      this.remember(key, { value, readAt: this.now() });
      return value;
    } catch (error) {
      if (this.entries.get(key) === pending) this.entries.delete(key);
      throw error;
    }
  }

  /** Reads an entry again in the background; tells `onChange` when the link is no longer the one served. */
  private refresh(key: string, entry: Entry, read: () => Promise<LinkedEntity | undefined>) {
    entry.reading = read();
    entry.reading.then(
      value => {
        if (this.entries.get(key) !== entry) return;
        this.remember(key, { value, readAt: this.now() });
        const before = entry.value;
        if (!sameLinkedEntity(before, value) && before) {
          this.options.onChange?.(before.entityRef, value?.link);
        }
      },
      error => {
        // the answer served stays until the next attempt
        entry.reading = undefined;
        this.options.logger.warn(
          `Flux Fleet could not read ${key.slice(key.indexOf('|') + 1)} from the catalog again; its last answer is kept: ${error}`,
        );
      },
    );
  }

  private remember(key: string, entry: Entry) {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) {
      // the least recently read first (a Map iterates in insertion order)
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (this.entries.size < MAX_ENTRIES / 2) break;
      }
    }
    this.entries.set(key, entry);
  }

  private async read(
    ref: { kind: string; namespace: string; name: string },
    credentials: BackstageCredentials,
  ): Promise<LinkedEntity | undefined> {
    const entity = await this.options.catalog.getEntityByRef(ref, { credentials });
    return entity && { entityRef: stringifyEntityRef(entity), link: entityLinkOf(entity) };
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

function sameLinkedEntity(a: LinkedEntity | undefined, b: LinkedEntity | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.entityRef === b.entityRef &&
    a.link.kubernetesId === b.link.kubernetesId &&
    a.link.labelSelector === b.link.labelSelector
  );
}

function callerOf(credentials: BackstageCredentials): string {
  const p = credentials.principal as { type?: string; userEntityRef?: string; subject?: string };
  return `${p.type}:${p.userEntityRef ?? p.subject ?? ''}`;
}
