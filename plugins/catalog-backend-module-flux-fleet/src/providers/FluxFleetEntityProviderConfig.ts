import {
  readSchedulerServiceTaskScheduleDefinitionFromConfig,
  SchedulerServiceTaskScheduleDefinition,
} from '@backstage/backend-plugin-api';
import {
  KubernetesValidatorFunctions,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { Config, readDurationFromConfig } from '@backstage/config';
import { InputError } from '@backstage/errors';
import { durationToMilliseconds } from '@backstage/types';
import { FluxKind, isFluxKind } from '@flux-fleet/plugin-flux-fleet-common';

/** Where the providers' options live in the app config. */
export const PROVIDERS_CONFIG_KEY = 'catalog.providers.fluxFleet';

/** The provider id used when the config holds the options of one provider rather than a map of them. */
export const DEFAULT_PROVIDER_ID = 'default';

/** The owner of entities that no tenant mapping gives an owner to, when none is configured. */
export const DEFAULT_OWNER = 'group:default/platform';

/** The Flux kinds emitted as entities when none are configured. */
export const DEFAULT_KINDS: readonly FluxKind[] = [
  'Kustomization',
  'HelmRelease',
];

/** The safety refresh when none is configured. */
export const DEFAULT_SCHEDULE: SchedulerServiceTaskScheduleDefinition = {
  frequency: { minutes: 30 },
  timeout: { minutes: 10 },
};

/** How long structural changes are collected before they are emitted, when not configured. */
export const DEFAULT_DEBOUNCE_MS = 2_000;

/** The options of one Flux Fleet entity provider, read and checked. */
export interface FluxFleetEntityProviderConfig {
  id: string;
  /** Clusters this provider emits; undefined = every cluster of the index. */
  clusters?: string[];
  /** Flux kinds emitted as entities, sorted. */
  kinds: FluxKind[];
  /** Full entity reference, e.g. `group:default/platform`. */
  defaultOwner: string;
  /** Tenant → full entity reference. */
  tenantOwners: Record<string, string>;
  /** Contains `{tenant}`. */
  tenantOwnerPattern?: string;
  /** Undefined = never remove the entities of an unreachable cluster. */
  removeAfterOutageMs?: number;
  createMissingComponents: boolean;
  debounceMs: number;
  schedule: SchedulerServiceTaskScheduleDefinition;
}

// Keys that only appear in the options of one provider: their presence means the config is not a map of ids.
const OPTION_KEYS = [
  'clusters',
  'kinds',
  'defaultOwner',
  'tenantOwners',
  'tenantOwnerPattern',
  'removeAfterOutage',
  'createMissingComponents',
  'debounce',
  'schedule',
];

/**
 * Reads every Flux Fleet entity provider from `catalog.providers.fluxFleet` (one provider's options, or a map of
 * provider id → options). No config means one provider with the defaults: installing the module is enough.
 * Throws an `InputError` naming the key when an option is wrong, so the backend fails fast at startup.
 */
export function readProviderConfigs(
  config: Config,
): FluxFleetEntityProviderConfig[] {
  const root = config.getOptionalConfig(PROVIDERS_CONFIG_KEY);
  if (!root || root.keys().length === 0) {
    return [readProviderConfig(DEFAULT_PROVIDER_ID, undefined, PROVIDERS_CONFIG_KEY)];
  }
  if (root.keys().some(key => OPTION_KEYS.includes(key))) {
    return [readProviderConfig(DEFAULT_PROVIDER_ID, root, PROVIDERS_CONFIG_KEY)];
  }
  const providers = root
    .keys()
    .sort()
    .map(id =>
      readProviderConfig(
        id,
        root.getConfig(id),
        `${PROVIDERS_CONFIG_KEY}.${id}`,
      ),
    );
  checkClustersApart(providers);
  return providers;
}

/**
 * Two providers emitting the same cluster would fight over its entities (the catalog keeps the first one's and
 * logs conflicts for the other): with several providers, each names its clusters, and no cluster twice.
 */
function checkClustersApart(providers: FluxFleetEntityProviderConfig[]) {
  if (providers.length < 2) return;
  const unbounded = providers.filter(p => p.clusters === undefined);
  if (unbounded.length > 0) {
    throw new InputError(
      `${PROVIDERS_CONFIG_KEY} has several providers, so each must list its clusters; ${unbounded
        .map(p => `${PROVIDERS_CONFIG_KEY}.${p.id}.clusters`)
        .join(', ')} ${unbounded.length === 1 ? 'is' : 'are'} missing`,
    );
  }
  const emittedBy = new Map<string, string>();
  for (const provider of providers) {
    for (const cluster of provider.clusters ?? []) {
      const other = emittedBy.get(cluster);
      if (other) {
        throw new InputError(
          `Cluster ${cluster} is listed by two providers, ${PROVIDERS_CONFIG_KEY}.${other} and ${PROVIDERS_CONFIG_KEY}.${provider.id}; a cluster's entities must come from one provider`,
        );
      }
      emittedBy.set(cluster, provider.id);
    }
  }
}

function readProviderConfig(
  id: string,
  config: Config | undefined,
  prefix: string,
): FluxFleetEntityProviderConfig {
  const at = (key: string) => `${prefix}.${key}`;

  const kinds = readKinds(config, at('kinds'));
  const defaultOwner = readOwnerRef(
    config?.getOptionalString('defaultOwner') ?? DEFAULT_OWNER,
    at('defaultOwner'),
  );

  const tenantOwners: Record<string, string> = {};
  const ownersConfig = config?.getOptionalConfig('tenantOwners');
  for (const tenant of ownersConfig?.keys() ?? []) {
    tenantOwners[tenant] = readOwnerRef(
      ownersConfig!.getString(tenant),
      `${at('tenantOwners')}.${tenant}`,
    );
  }

  const tenantOwnerPattern = config?.getOptionalString('tenantOwnerPattern');
  if (tenantOwnerPattern !== undefined) {
    if (!tenantOwnerPattern.includes('{tenant}')) {
      throw new InputError(
        `${at(
          'tenantOwnerPattern',
        )} must contain {tenant}, e.g. group:default/{tenant}; got '${tenantOwnerPattern}'`,
      );
    }
    readOwnerRef(
      tenantOwnerPattern.replaceAll('{tenant}', 'tenant'),
      at('tenantOwnerPattern'),
    );
  }

  return {
    id,
    clusters: config
      ?.getOptionalStringArray('clusters')
      ?.slice()
      .sort(),
    kinds,
    defaultOwner,
    tenantOwners,
    tenantOwnerPattern,
    removeAfterOutageMs: readOptionalDurationMs(
      config,
      'removeAfterOutage',
      at('removeAfterOutage'),
    ),
    createMissingComponents:
      config?.getOptionalBoolean('createMissingComponents') ?? false,
    debounceMs:
      readOptionalDurationMs(config, 'debounce', at('debounce')) ??
      DEFAULT_DEBOUNCE_MS,
    schedule: readSchedule(config, at('schedule')),
  };
}

function readKinds(config: Config | undefined, key: string): FluxKind[] {
  const configured = config?.getOptionalStringArray('kinds');
  if (configured === undefined) return [...DEFAULT_KINDS].sort();
  const unknown = configured.filter(kind => !isFluxKind(kind));
  if (unknown.length > 0) {
    throw new InputError(
      `${key} names kinds that are not Flux kinds: ${unknown.join(
        ', ',
      )}. Use kinds such as Kustomization, HelmRelease, GitRepository, OCIRepository, HelmRepository, Bucket.`,
    );
  }
  return [...new Set(configured as FluxKind[])].sort();
}

/** Reads an owner as a full entity reference; a bare name is a group in the default namespace. */
function readOwnerRef(value: string, key: string): string {
  try {
    const ref = parseEntityRef(value, {
      defaultKind: 'group',
      defaultNamespace: 'default',
    });
    if (!KubernetesValidatorFunctions.isValidNamespace(ref.namespace)) {
      throw new Error(`'${ref.namespace}' is not a valid namespace`);
    }
    if (!KubernetesValidatorFunctions.isValidObjectName(ref.name)) {
      throw new Error(`'${ref.name}' is not a valid entity name`);
    }
    return stringifyEntityRef(ref);
  } catch (error) {
    throw new InputError(
      `${key} must be an entity reference such as group:default/platform; got '${value}': ${error}`,
    );
  }
}

function readOptionalDurationMs(
  config: Config | undefined,
  key: string,
  fullKey: string,
): number | undefined {
  if (!config?.has(key)) return undefined;
  try {
    return durationToMilliseconds(readDurationFromConfig(config, { key }));
  } catch (error) {
    throw new InputError(
      `${fullKey} must be a duration such as { minutes: 30 } or 'PT30M': ${error}`,
    );
  }
}

function readSchedule(
  config: Config | undefined,
  key: string,
): SchedulerServiceTaskScheduleDefinition {
  if (!config?.has('schedule')) return DEFAULT_SCHEDULE;
  try {
    return readSchedulerServiceTaskScheduleDefinitionFromConfig(
      config.getConfig('schedule'),
    );
  } catch (error) {
    throw new InputError(`${key} is not a valid schedule: ${error}`);
  }
}
