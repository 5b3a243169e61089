import { FindingType } from '@flux-fleet/plugin-flux-fleet-common';

/** The words of each finding type (rules §8). */
export const FINDING_LABEL: Readonly<Record<FindingType, string>> = {
  orphan: 'Orphan: no controller watches it',
  contested: 'Contested: several controllers reconcile it',
  'cross-shard-reference': 'Source on another shard',
  'cross-tenant-reference': 'Reference to another tenant',
  'boundary-none': 'Tenant without an enforced boundary',
  'reconcile-not-handled': 'Reconcile requested, not handled',
  'dependency-cycle': 'Dependency cycle',
  'missing-dependency': 'Missing dependency',
  'missing-source': 'Missing source',
  'shard-over-capacity': 'Shard over capacity',
  'mixed-versions': 'Controllers of different Flux releases',
  'upgrade-blocked': 'Upgrade blocked: run flux migrate first',
  'deprecated-api': 'Written at a removed or deprecated API version',
};

/** Findings whose rule is inferred from Flux's code rather than its documentation (rules §4, §8). */
export const INFERRED_FINDINGS: readonly FindingType[] = [
  'orphan',
  'cross-shard-reference',
];
