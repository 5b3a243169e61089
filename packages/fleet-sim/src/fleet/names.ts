/**
 * Realistic names for what the generator builds: services (`checkout`, `payments-api`, `search-indexer-7`),
 * the teams that own them (tenants), and clusters (`prod-eu-west-1`).
 */
import type { Random } from '../random';

/** The service every cluster of every fleet deploys (the demo catalog has a Component `checkout`). */
export const ALWAYS_DEPLOYED_SERVICE = 'checkout';

/** Service stems and the team that usually owns them. */
const SERVICE_STEMS: ReadonlyArray<readonly [string, string]> = [
  ['checkout', 'shop'],
  ['cart', 'shop'],
  ['catalog', 'shop'],
  ['pricing', 'shop'],
  ['promotions', 'shop'],
  ['reviews', 'shop'],
  ['wishlist', 'shop'],
  ['payments', 'payments'],
  ['billing', 'payments'],
  ['invoicing', 'payments'],
  ['ledger', 'payments'],
  ['refunds', 'payments'],
  ['fraud-detection', 'payments'],
  ['payouts', 'payments'],
  ['search', 'search'],
  ['search-indexer', 'search'],
  ['autocomplete', 'search'],
  ['recommendations', 'search'],
  ['ranking', 'search'],
  ['auth', 'identity'],
  ['user-profile', 'identity'],
  ['sessions', 'identity'],
  ['permissions', 'identity'],
  ['sso-bridge', 'identity'],
  ['accounts', 'identity'],
  ['shipping', 'logistics'],
  ['inventory', 'logistics'],
  ['warehouse', 'logistics'],
  ['tracking', 'logistics'],
  ['returns', 'logistics'],
  ['fulfillment', 'logistics'],
  ['notifications', 'messaging'],
  ['email-sender', 'messaging'],
  ['sms-gateway', 'messaging'],
  ['push-notifier', 'messaging'],
  ['chat', 'messaging'],
  ['analytics', 'data'],
  ['event-collector', 'data'],
  ['etl-runner', 'data'],
  ['reporting', 'data'],
  ['data-export', 'data'],
  ['feature-store', 'ml'],
  ['model-serving', 'ml'],
  ['embeddings', 'ml'],
  ['training-scheduler', 'ml'],
  ['media', 'content'],
  ['image-resizer', 'content'],
  ['cms', 'content'],
  ['translations', 'content'],
  ['geo', 'platform'],
  ['rate-limiter', 'platform'],
  ['feature-flags', 'platform'],
  ['config-service', 'platform'],
  ['audit-log', 'platform'],
  ['loyalty', 'growth'],
  ['referrals', 'growth'],
  ['experiments', 'growth'],
  ['onboarding', 'growth'],
  ['support-desk', 'support'],
  ['ticketing', 'support'],
  ['knowledge-base', 'support'],
  ['mobile-bff', 'mobile'],
  ['web-bff', 'web'],
  ['storefront', 'web'],
  ['admin-portal', 'web'],
];

const SERVICE_SUFFIXES = [
  '',
  '-api',
  '-worker',
  '-gateway',
  '-sync',
  '-consumer',
  '-scheduler',
  '-cache',
  '-service',
  '-indexer',
  '-web',
];

/** A service of the fleet and the team (tenant) that owns it. */
export interface ServiceIdentity {
  name: string;
  team: string;
}

/**
 * The fleet's service pool: unique, realistic names, `checkout` first. Names repeat across clusters because
 * each cluster deploys a subset of this pool.
 */
export function servicePool(size: number, random: Random): ServiceIdentity[] {
  const pool: ServiceIdentity[] = [
    { name: ALWAYS_DEPLOYED_SERVICE, team: 'shop' },
  ];
  const seen = new Set([ALWAYS_DEPLOYED_SERVICE]);
  const combos: ServiceIdentity[] = [];
  for (const suffix of SERVICE_SUFFIXES) {
    for (const [stem, team] of SERVICE_STEMS) {
      combos.push({ name: `${stem}${suffix}`, team });
    }
  }
  // Plain stems first (they read best), then the suffixed variants in a seeded order.
  const plain = combos.slice(0, SERVICE_STEMS.length);
  const suffixed = random.shuffle(combos.slice(SERVICE_STEMS.length));
  for (const candidate of [...plain, ...suffixed]) {
    if (pool.length >= size) break;
    if (seen.has(candidate.name)) continue;
    seen.add(candidate.name);
    pool.push(candidate);
  }
  // Past the combinations, number them like real fleets do (`search-indexer-7`).
  let n = 2;
  while (pool.length < size) {
    for (const base of combos) {
      if (pool.length >= size) break;
      const name = `${base.name}-${n}`;
      if (seen.has(name)) continue;
      seen.add(name);
      pool.push({ name, team: base.team });
    }
    n++;
  }
  return pool;
}

const ENVIRONMENTS = ['prod', 'staging', 'prod', 'dev', 'prod', 'edge', 'qa'];
const REGIONS = [
  'eu-west-1',
  'us-east-1',
  'ap-southeast-1',
  'eu-central-1',
  'us-west-2',
  'ap-northeast-1',
  'sa-east-1',
  'ca-central-1',
  'eu-north-1',
  'me-central-1',
  'af-south-1',
  'ap-south-1',
];

/** The environment each name prefix stands for, as the demo configures it (`fluxFleet.clusters[].environment`). */
const ENVIRONMENT_NAMES: Readonly<Record<string, string>> = {
  prod: 'production',
  staging: 'staging',
  dev: 'development',
  edge: 'edge',
  qa: 'qa',
};

/**
 * The environment a cluster was built for: the one its name was made from (`prod-eu-west-1` → production), or
 * undefined for a name `clusterNames` did not make.
 */
export function clusterEnvironment(name: string): string | undefined {
  const prefix = name.split('-')[0];
  return ENVIRONMENTS.includes(prefix) ? ENVIRONMENT_NAMES[prefix] : undefined;
}

/** Cluster names: `prod-eu-west-1`, `staging-us-east-1`, … then numbered (`prod-eu-west-1-b`). */
export function clusterNames(count: number): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  let round = 0;
  while (names.length < count) {
    for (
      let i = 0;
      i < REGIONS.length * ENVIRONMENTS.length && names.length < count;
      i++
    ) {
      const env = ENVIRONMENTS[i % ENVIRONMENTS.length];
      const region =
        REGIONS[Math.floor(i / ENVIRONMENTS.length + i) % REGIONS.length];
      const base = `${env}-${region}`;
      const name =
        round === 0 ? base : `${base}-${String.fromCharCode(97 + round)}`;
      if (seen.has(name)) continue;
      seen.add(name);
      names.push(name);
    }
    round++;
  }
  return names;
}
