import type { LoggerService } from '@backstage/backend-plugin-api';
import type { SignalsService } from '@backstage/plugin-signals-node';
import {
  EntityLink,
  EntityLinkTarget,
  matchesEntityLink,
  SIGNAL_CHANNELS,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { FleetIndexChange } from '@flux-fleet/plugin-flux-fleet-node';
import { CoalescingPublisher } from './CoalescingPublisher';

/** How long a viewed entity or object keeps receiving signals after its last view was requested. */
const INTEREST_TTL_MS = 60 * 60 * 1000;
/** Most entities and objects remembered; the least recently viewed are forgotten first. */
const MAX_INTEREST = 10_000;

/** What the signals need to know of an object that changed. */
export interface ChangedObjectLookup {
  /** The object's link target now, or undefined when it is gone. */
  linkTarget(key: string): EntityLinkTarget | undefined;
}

/**
 * Turns index changes into Backstage signals: `flux-fleet:fleet` for every change, `flux-fleet:object:<key>` for
 * objects whose detail was viewed, and `flux-fleet:entity:<ref>` for entities whose view was requested, found
 * through a reverse map from service (kubernetes-id) to entity refs, so a change costs a map lookup per object
 * instead of a match against every entity. Entities linked by label selector are matched against the changed
 * objects only.
 */
export class FleetSignals {
  private readonly publisher: CoalescingPublisher;
  /** Entity ref → its link, in order of last view. */
  private readonly entities = new Map<string, EntityLink>();
  private readonly entitiesByService = new Map<string, Set<string>>();
  private readonly entityViewedAt = new Map<string, number>();
  /** Object key → when its detail was last viewed, in order of last view. */
  private readonly objects = new Map<string, number>();

  constructor(
    signals: SignalsService,
    logger: LoggerService,
    private readonly lookup: ChangedObjectLookup,
    /** The signal window; CoalescingPublisher's (SIGNAL_WINDOW_MS) when not given. */
    windowMs?: number,
  ) {
    this.publisher = new CoalescingPublisher(signals, logger, windowMs);
  }

  /** An entity view was requested: its page will want signals. */
  entityViewed(entityRef: string, link: EntityLink): void {
    const previous = this.entities.get(entityRef);
    if (previous?.kubernetesId !== undefined) {
      this.entitiesByService.get(previous.kubernetesId)?.delete(entityRef);
    }
    this.entities.delete(entityRef);
    this.entities.set(entityRef, link);
    this.entityViewedAt.set(entityRef, Date.now());
    if (link.kubernetesId !== undefined) {
      let refs = this.entitiesByService.get(link.kubernetesId);
      if (!refs) {
        refs = new Set();
        this.entitiesByService.set(link.kubernetesId, refs);
      }
      refs.add(entityRef);
    }
    this.expire();
  }

  /**
   * An entity's link annotations changed in the catalog (or the entity is gone): its open pages ask for their
   * view again, which then follows the new link.
   */
  entityLinkChanged(entityRef: string, link: EntityLink | undefined): void {
    if (!this.entities.has(entityRef)) return;
    if (link) this.entityViewed(entityRef, link);
    this.publisher.publish(SIGNAL_CHANNELS.entity(entityRef), []);
  }

  /** Capacity verdicts changed: `keys` are the `cluster/instance` of the instances concerned. */
  capacityChanged(keys: Iterable<string>): void {
    this.publisher.publish(SIGNAL_CHANNELS.capacity, keys);
  }

  /** An object's detail was requested. */
  objectViewed(key: string): void {
    this.objects.delete(key);
    this.objects.set(key, Date.now());
    this.expire();
  }

  /** Publishes what a batch of index changes means for the open pages. */
  onChanges(changes: FleetIndexChange[]): void {
    const keys = new Set<string>();
    const services = new Set<string>();
    for (const change of changes) {
      for (const key of change.keys) keys.add(key);
      for (const service of change.services ?? []) services.add(service);
    }
    // a cluster became stale or fresh: each open detail of one of its objects shows the object's `stale` flag
    const everyObject = new Set(changes.filter(c => c.everyObject).map(c => c.cluster));
    if (everyObject.size > 0) {
      for (const key of this.objects.keys()) {
        if (everyObject.has(key.slice(0, key.indexOf('/')))) this.publisher.publish(SIGNAL_CHANNELS.object(key), [key]);
      }
    }
    // a change without keys is a cluster's health changing (rules §15): the fleet's pages show it, and so do the
    // pages of the entities with objects in that cluster (the change names their services), whose notices say
    // whether the cluster is synced, lagging or unreachable
    if (keys.size === 0) {
      if (changes.length === 0) return;
      this.publisher.publish(SIGNAL_CHANNELS.fleet, []);
      const refs = new Set<string>();
      for (const service of services) {
        for (const ref of this.entitiesByService.get(service) ?? [])
          refs.add(ref);
      }
      // which objects of the cluster a label selector matches is not known without looking each up: its pages
      // fetch again
      for (const [ref, link] of this.entities) {
        if (link.labelSelector !== undefined) refs.add(ref);
      }
      for (const ref of refs)
        this.publisher.publish(SIGNAL_CHANNELS.entity(ref), []);
      return;
    }
    this.publisher.publish(SIGNAL_CHANNELS.fleet, keys);

    for (const key of keys) {
      if (this.objects.has(key)) {
        this.publisher.publish(SIGNAL_CHANNELS.object(key), [key]);
      }
    }

    // no entity page is open here (a backend just started, or every interest expired): nothing below would be
    // published, and looking up each key's link target cost ~25 ms per 2,000 keys of a restored snapshot, on the
    // critical path of a restart (issue 11)
    if (this.entities.size === 0) return;

    const entityKeys = new Map<string, Set<string>>();
    const note = (ref: string, key: string) => {
      let set = entityKeys.get(ref);
      if (!set) {
        set = new Set();
        entityKeys.set(ref, set);
      }
      set.add(key);
    };
    const selectorEntities = [...this.entities].filter(
      ([, link]) => link.labelSelector !== undefined,
    );
    for (const key of keys) {
      const target = this.lookup.linkTarget(key);
      if (target?.service) {
        for (const ref of this.entitiesByService.get(target.service) ?? []) {
          note(ref, key);
        }
      }
      if (target) {
        for (const [ref, link] of selectorEntities) {
          if (matchesEntityLink(target, link)) note(ref, key);
        }
      }
    }
    // objects that left a service (or were removed) still concern the entities that showed them
    for (const service of services) {
      for (const ref of this.entitiesByService.get(service) ?? []) {
        if (!entityKeys.has(ref)) note(ref, '');
      }
    }
    for (const [ref, refKeys] of entityKeys) {
      refKeys.delete('');
      this.publisher.publish(SIGNAL_CHANNELS.entity(ref), refKeys);
    }
  }

  close(): void {
    this.publisher.close();
  }

  private expire() {
    const cutoff = Date.now() - INTEREST_TTL_MS;
    for (const [ref] of this.entities) {
      if (
        this.entities.size <= MAX_INTEREST &&
        (this.entityViewedAt.get(ref) ?? 0) >= cutoff
      ) {
        break;
      }
      const link = this.entities.get(ref);
      if (link?.kubernetesId !== undefined) {
        const refs = this.entitiesByService.get(link.kubernetesId);
        refs?.delete(ref);
        if (refs?.size === 0) this.entitiesByService.delete(link.kubernetesId);
      }
      this.entities.delete(ref);
      this.entityViewedAt.delete(ref);
    }
    for (const [key, at] of this.objects) {
      if (this.objects.size <= MAX_INTEREST && at >= cutoff) break;
      this.objects.delete(key);
    }
  }
}
