import type {
  BackstageCredentials,
  PermissionsRegistryService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import {
  AuthorizeResult,
  PermissionCriteria,
} from '@backstage/plugin-permission-common';
import { createConditionTransformer } from '@backstage/plugin-permission-node';
import { fluxObjectReadPermission } from '@flux-fleet/plugin-flux-fleet-common';
import {
  FluxObjectField,
  FluxObjectFieldValue,
  fieldMatches,
  FluxObjectQuery,
  fluxObjectResourceRef,
} from './fluxObjectRules';

/** Which Flux objects a caller may read: a test on an object's fields. */
export type ReadFilter = (field: (name: FluxObjectField) => FluxObjectFieldValue) => boolean;

/**
 * What a caller may read of the catalog's entities (`catalog.entity.read`): every entity, none, or those the
 * policy's conditions allow (which only the catalog can evaluate).
 */
export type EntityReadDecision = 'all' | 'none' | 'conditional';

interface CallerDecisions {
  filter: ReadFilter | 'none';
  entities: EntityReadDecision;
}

/** Decisions are reused this long per caller: a page refreshing on every signal costs no permission request. */
const DECISION_TTL_MS = 10_000;
const MAX_CALLERS = 2_000;

const ALL: ReadFilter = () => true;

/**
 * Turns the `flux-fleet.object.read` decision for a caller into a filter over objects: allowed reads everything,
 * denied nothing, conditional evaluates the policy's conditions (the rules of `fluxObjectRules`) on each object
 * in memory. The same request asks `catalog.entity.read`, which the entity view needs. Decisions are kept briefly
 * per caller; concurrent first requests of a caller share one permission request.
 */
export class ReadAccess {
  private readonly cache = new Map<string, { decisions: CallerDecisions; expires: number }>();
  private readonly deciding = new Map<string, Promise<CallerDecisions>>();
  private readonly transform;

  constructor(
    private readonly permissions: PermissionsService,
    registry: PermissionsRegistryService,
  ) {
    this.transform = createConditionTransformer(
      registry.getPermissionRuleset(fluxObjectResourceRef),
    );
  }

  /** The filter for a caller; undefined when everything may be read. Throws NotAllowedError when nothing may. */
  async filterFor(credentials: BackstageCredentials): Promise<ReadFilter | undefined> {
    const { filter } = await this.decide(credentials);
    if (filter === 'none') {
      throw new NotAllowedError(
        'You may not read Flux objects (permission flux-fleet.object.read is denied)',
      );
    }
    return filter === ALL ? undefined : filter;
  }

  /** What the caller may read of catalog entities (`catalog.entity.read`), as the catalog would decide it. */
  async entitiesFor(credentials: BackstageCredentials): Promise<EntityReadDecision> {
    return (await this.decide(credentials)).entities;
  }

  private async decide(credentials: BackstageCredentials): Promise<CallerDecisions> {
    const principal = credentials.principal as {
      type?: string;
      userEntityRef?: string;
      subject?: string;
    };
    const caller = `${principal.type}:${principal.userEntityRef ?? principal.subject ?? ''}`;
    const cached = this.cache.get(caller);
    if (cached && cached.expires > Date.now()) return cached.decisions;
    let deciding = this.deciding.get(caller);
    if (!deciding) {
      deciding = this.ask(credentials).finally(() => this.deciding.delete(caller));
      this.deciding.set(caller, deciding);
    }
    const decisions = await deciding;
    if (this.cache.size >= MAX_CALLERS) this.cache.clear();
    this.cache.set(caller, { decisions, expires: Date.now() + DECISION_TTL_MS });
    return decisions;
  }

  private async ask(credentials: BackstageCredentials): Promise<CallerDecisions> {
    const [objects, entities] = await this.permissions.authorizeConditional(
      [{ permission: fluxObjectReadPermission }, { permission: catalogEntityReadPermission }],
      { credentials },
    );
    let filter: ReadFilter | 'none';
    if (objects.result === AuthorizeResult.CONDITIONAL) {
      const criteria = this.transform(objects.conditions);
      filter = field => matches(criteria, field);
    } else {
      filter = objects.result === AuthorizeResult.ALLOW ? ALL : 'none';
    }
    let entityDecision: EntityReadDecision = 'conditional';
    if (entities.result === AuthorizeResult.ALLOW) entityDecision = 'all';
    if (entities.result === AuthorizeResult.DENY) entityDecision = 'none';
    return { filter, entities: entityDecision };
  }
}

function matches(
  criteria: PermissionCriteria<FluxObjectQuery>,
  field: (name: FluxObjectField) => FluxObjectFieldValue,
): boolean {
  if ('allOf' in criteria) return criteria.allOf.every(c => matches(c, field));
  if ('anyOf' in criteria) return criteria.anyOf.some(c => matches(c, field));
  if ('not' in criteria) return !matches(criteria.not, field);
  return fieldMatches(field(criteria.field), criteria.field, criteria.values);
}
