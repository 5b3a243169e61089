import type {
  BackstageCredentials,
  PermissionsRegistryService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
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

/** Decisions are reused this long per caller: a page refreshing on every signal costs no permission request. */
const DECISION_TTL_MS = 10_000;
const MAX_CALLERS = 2_000;

const ALL: ReadFilter = () => true;

/**
 * Turns the `flux-fleet.object.read` decision for a caller into a filter over objects: allowed reads everything,
 * denied nothing, conditional evaluates the policy's conditions (the rules of `fluxObjectRules`) on each object
 * in memory. Decisions are kept briefly per caller.
 */
export class ReadAccess {
  private readonly cache = new Map<string, { filter: ReadFilter | 'none'; expires: number }>();
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
    const filter = await this.decide(credentials);
    if (filter === 'none') {
      throw new NotAllowedError(
        'You may not read Flux objects (permission flux-fleet.object.read is denied)',
      );
    }
    return filter === ALL ? undefined : filter;
  }

  private async decide(credentials: BackstageCredentials): Promise<ReadFilter | 'none'> {
    const principal = credentials.principal as {
      type?: string;
      userEntityRef?: string;
      subject?: string;
    };
    const caller = `${principal.type}:${principal.userEntityRef ?? principal.subject ?? ''}`;
    const now = Date.now();
    const cached = this.cache.get(caller);
    if (cached && cached.expires > now) return cached.filter;

    const [decision] = await this.permissions.authorizeConditional(
      [{ permission: fluxObjectReadPermission }],
      { credentials },
    );
    let filter: ReadFilter | 'none';
    if (decision.result === AuthorizeResult.CONDITIONAL) {
      const criteria = this.transform(decision.conditions);
      filter = field => matches(criteria, field);
    } else {
      filter = decision.result === AuthorizeResult.ALLOW ? ALL : 'none';
    }
    if (this.cache.size >= MAX_CALLERS) this.cache.clear();
    this.cache.set(caller, { filter, expires: now + DECISION_TTL_MS });
    return filter;
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
