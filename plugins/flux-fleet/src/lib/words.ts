/** "1 shard", "12 shards". */
export const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** The first `max` names joined with commas, the rest counted: "a, b, c and 2 more". */
export function namedUpTo(names: readonly string[], max: number): string {
  const more = names.length - max;
  return `${names.slice(0, max).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** What the fleet's sentences say when no cluster is configured, and where to configure one. */
export const NO_CLUSTERS =
  'No cluster is configured: list them under fluxFleet.clusters, or give the Kubernetes plugin clusters with a service account.';
