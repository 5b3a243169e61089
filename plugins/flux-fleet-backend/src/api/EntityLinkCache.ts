import type {
  AuthService,
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { type Entity, stringifyEntityRef } from '@backstage/catalog-model';
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
/**
 * "Not in the catalog" is served only this long, then asked again on the next view. An entity page is opened only
 * for an entity the catalog already shows, so this answer is usually a race with the catalog's own processing (a
 * new entity, or a catalog still filling after a first start): kept for {@link FRESH_MS} it answered 404 for
 * minutes after the catalog had the entity. A page that keeps asking for an entity that is really gone costs the
 * catalog one request per this interval.
 */
const NOT_FOUND_MS = 5_000;
const MAX_ENTRIES = 5_000;
/** Entity refs per `getEntitiesByRefs` request when shared answers are read again. */
const REFRESH_BATCH = 500;
/** What a link needs of an entity. */
const LINK_FIELDS = ['kind', 'metadata.namespace', 'metadata.name', 'metadata.annotations'];
/** The key prefix of answers shared by every caller allowed to read every entity. */
const SHARED = '*|';

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
  /** When a caller last asked for it: entries nobody asked for in {@link MAX_AGE_MS} are no longer refreshed. */
  viewedAt?: number;
  /** A read of the catalog under way, for a miss or a refresh. */
  reading?: Promise<LinkedEntity | undefined>;
}

/**
 * The link annotations of catalog entities (rules §6), read from the catalog and kept in memory, so that an entity
 * view, which its page asks again on every signal, costs no catalog request. The catalog stays the source of
 * truth, and when an entity's link changed (or the entity is gone) `onChange` says so, so that open pages of the
 * entity ask again.
 *
 * The catalog's own read permission is honoured per caller. Answers read with the plugin's own credentials are
 * shared by every caller whose `catalog.entity.read` decision is an unconditional allow: the catalog would show
 * them every entity, so the shared answer is the one it would give them. These are read again together, in one
 * `getEntitiesByRefs` request every {@link FRESH_MS} for the entities asked for within {@link MAX_AGE_MS}, rather
 * than one request per view: a page view then never waits on, or shares its time with, a catalog request. A
 * caller denied that permission is told nothing exists (the catalog would answer them 404). A caller with a
 * conditional decision gets answers read with their own credentials and kept for them alone, since only the
 * catalog can evaluate the policy's conditions; those are served for {@link FRESH_MS}, then served once more while
 * they are read again.
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
      /** Whether shared answers are read again on a timer (tests call {@link refreshShared} instead). */
      timer?: boolean;
    },
  ) {}

  private refreshTimer?: ReturnType<typeof setInterval>;
  private refreshing?: Promise<void>;

  /** The entity with its link, or undefined when the catalog does not show it to the caller. */
  async linkOf(
    ref: { kind: string; namespace: string; name: string },
    credentials: BackstageCredentials,
  ): Promise<LinkedEntity | undefined> {
    const decision = await this.options.access.entitiesFor(credentials);
    if (decision === 'none') return undefined;
    const entityKey = `${ref.kind}:${ref.namespace}/${ref.name}`.toLocaleLowerCase('en-US');
    if (decision === 'all') {
      this.startTimer();
      return this.cached(
        `${SHARED}${entityKey}`,
        async () => this.read(ref, await this.options.auth.getOwnServiceCredentials()),
        false,
      );
    }
    return this.cached(
      `${callerOf(credentials)}|${entityKey}`,
      () => this.read(ref, credentials),
      true,
    );
  }

  /**
   * Reads the shared answers of the entities asked for lately again, in batches; tells `onChange` of every link
   * that changed. Runs every {@link FRESH_MS}; a failure keeps the answers served and says so in the log.
   */
  async refreshShared(): Promise<void> {
    this.refreshing ??= this.readSharedAgain().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Stops the timer. */
  close(): void {
    clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
  }

  private startTimer() {
    if (this.refreshTimer || this.options.timer === false) return;
    this.refreshTimer = setInterval(() => void this.refreshShared(), FRESH_MS);
    this.refreshTimer.unref?.();
  }

  private async readSharedAgain(): Promise<void> {
    const now = this.now();
    const due: Array<[string, Entry]> = [];
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(SHARED) || entry.reading) continue;
      if (now - (entry.viewedAt ?? entry.readAt) >= MAX_AGE_MS) {
        // nobody asked for it lately: forget it rather than keep reading it
        this.entries.delete(key);
      } else if (now - entry.readAt >= FRESH_MS) {
        due.push([key, entry]);
      }
    }
    if (due.length === 0) return;
    let credentials;
    try {
      credentials = await this.options.auth.getOwnServiceCredentials();
    } catch (error) {
      this.options.logger.warn(`Flux Fleet could not read entity links again: ${error}`);
      return;
    }
    for (let i = 0; i < due.length; i += REFRESH_BATCH) {
      const batch = due.slice(i, i + REFRESH_BATCH);
      let items;
      try {
        ({ items } = await this.options.catalog.getEntitiesByRefs(
          { entityRefs: batch.map(([key]) => key.slice(SHARED.length)), fields: LINK_FIELDS },
          { credentials },
        ));
      } catch (error) {
        this.options.logger.warn(
          `Flux Fleet could not read the links of ${batch.length} entities from the catalog again; their last answers are kept: ${error}`,
        );
        continue;
      }
      batch.forEach(([key, entry], n) => {
        // answered by a read of its own meanwhile, or forgotten: nothing to update
        if (this.entries.get(key) !== entry) return;
        this.answered(key, entry, linkedEntityOf(items[n]));
      });
    }
  }

  /**
   * An answer served from memory while it is younger than {@link MAX_AGE_MS} ("not in the catalog":
   * {@link NOT_FOUND_MS}, then read again before the view is answered); with `refreshOnView`, one older than
   * {@link FRESH_MS} is also read again in the background (shared answers are, on the timer, instead).
   */
  private async cached(
    key: string,
    read: () => Promise<LinkedEntity | undefined>,
    refreshOnView: boolean,
  ): Promise<LinkedEntity | undefined> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.readAt < (entry.value ? MAX_AGE_MS : NOT_FOUND_MS)) {
      entry.viewedAt = now;
      if (refreshOnView && now - entry.readAt >= FRESH_MS && !entry.reading) {
        this.refresh(key, entry, read);
      }
      return entry.value;
    }
    if (entry?.reading) return entry.reading;
    const reading = read();
    const pending: Entry = { value: undefined, readAt: -Infinity, reading };
    this.entries.set(key, pending);
    try {
      const value = await reading;
      this.remember(key, { value, readAt: this.now(), viewedAt: now });
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
        if (this.entries.get(key) === entry) this.answered(key, entry, value);
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

  /** A new answer for an entry: kept as the most recently read, and `onChange` told when its link changed. */
  private answered(key: string, entry: Entry, value: LinkedEntity | undefined) {
    this.remember(key, { value, readAt: this.now(), viewedAt: entry.viewedAt });
    const before = entry.value;
    if (before && !sameLinkedEntity(before, value)) {
      this.options.onChange?.(before.entityRef, value?.link);
    }
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
    return linkedEntityOf(await this.options.catalog.getEntityByRef(ref, { credentials }));
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

function linkedEntityOf(entity: Entity | undefined): LinkedEntity | undefined {
  return entity && { entityRef: stringifyEntityRef(entity), link: entityLinkOf(entity) };
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
