import { TruthObject } from './groundTruth';

/**
 * What a person reads on the screen for a fact of the ground truth: the words the UI uses for reconcile states,
 * boundary enforcement and owners (plugins/flux-fleet README and docs/rules.md). Written out here, not imported
 * from the plugin, so that a change of wording in the UI is a visible, deliberate change of these tests.
 */
export const STATE_WORDS: Readonly<Record<string, string>> = {
  ready: 'Ready',
  progressing: 'Progressing',
  failed: 'Failed',
  blocked: 'Blocked',
  stalled: 'Stalled',
  suspended: 'Suspended',
  'never-reconciled': 'Never reconciled',
  terminating: 'Terminating',
  unknown: 'Unknown',
};

/** The words of each boundary enforcement level. */
export const ENFORCEMENT_WORDS: Readonly<Record<string, string>> = {
  enforced: 'Enforced',
  partial: 'Partial',
  none: 'None',
};

/** The finding groups' headings on the fleet page, per finding type (rules §8). */
export const FINDING_WORDS: Readonly<Record<string, string>> = {
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
};

function wordsOf(table: Readonly<Record<string, string>>, value: string) {
  const words = table[value];
  if (!words) {
    throw new Error(
      `The ground truth says "${value}", which these tests have no words for: add it to expectedWords.ts`,
    );
  }
  return words;
}

/** How the shard of an object reads: its shard's name, or the owner problem in capitals. */
export function expectedShard(o: TruthObject): string {
  if (o.owner === 'orphan') return 'Orphan';
  if (o.owner === 'contested') return 'Contested';
  return o.shard ?? 'main';
}

/** How the state of an object begins: its state's words (a blocked one goes on "by <dependency>"). */
export function expectedState(o: Pick<TruthObject, 'state'>): string {
  return wordsOf(STATE_WORDS, o.state);
}

/**
 * How the boundary of a Kustomization or HelmRelease begins: enforcement, tenant, namespace and the identity
 * its apply runs as.
 */
export function expectedBoundary(o: TruthObject): string {
  const runsAs = o.serviceAccount ?? 'controller identity';
  return `${wordsOf(ENFORCEMENT_WORDS, o.boundary)} · tenant ${
    o.tenant ?? 'none'
  } · namespace ${o.namespace} · runs as ${runsAs}`;
}

/** How the instance of an object begins: its namespace, or that no single instance owns it. */
export function expectedInstance(o: TruthObject): string {
  return o.instance ?? 'no single instance';
}

/** The state words a shown state begins with (the longest that fits), or undefined when it begins with none. */
export function shownStateWords(shown: string): string | undefined {
  return Object.values(STATE_WORDS)
    .filter(words => shown.startsWith(words))
    .sort((a, b) => b.length - a.length)[0];
}
