import {
  FleetObject,
  LABELS,
  MAIN_SHARD,
  Owner,
} from '@flux-fleet/plugin-flux-fleet-common';

/** `instance / shard` of an owned object, or the owner status when no single controller owns it. */
export function ownerLabel(owner: Owner): string {
  if (owner.status === 'ok') {
    return owner.instance
      ? `${owner.instance} / ${owner.shard ?? MAIN_SHARD}`
      : owner.shard ?? MAIN_SHARD;
  }
  return owner.status;
}

/**
 * What to do about an orphan (rules §4, inferred from selector semantics): which label would let a controller
 * select it, with a real shard name of the cluster when known.
 */
export function orphanAdvice(
  object: Pick<FleetObject, 'labels' | 'ref'>,
  shardsInCluster: readonly string[] = [],
): string {
  const { cluster, kind, namespace } = object.ref;
  const shardKey = object.labels[LABELS.shardKey];
  const shards = shardsInCluster.filter(
    s => s !== MAIN_SHARD && s !== shardKey,
  );
  const sentences = [
    `No controller watches this object: add a shard label that a controller selects, e.g. ${
      LABELS.shardKey
    }=${shards[0] ?? 'shard1'}.`,
  ];
  if (shardKey !== undefined) {
    const toMain = shardsInCluster.includes(MAIN_SHARD)
      ? '; removing it hands the object to the main shard'
      : '';
    sentences.push(
      `Its label ${LABELS.shardKey}=${shardKey} matches no controller in ${cluster}${toMain}.`,
    );
  } else {
    sentences.push(
      `Check that a controller for ${kind} watches namespace ${namespace} (--watch-all-namespaces).`,
    );
  }
  if (shards.length > 0) {
    sentences.push(`Shards in ${cluster}: ${shards.join(', ')}.`);
  }
  return sentences.join(' ');
}

/** Who reconciles a contested object and what to do about it (rules §4, flux2#4500). */
export function contestedAdvice(owner: Owner): string {
  const candidates = owner.candidates ?? [];
  const count = candidates.length;
  const who = candidates
    .map(c => `${c.instance}/${c.shard} (${c.controller})`)
    .join(' and ');
  let countWord = 'Several';
  if (count === 2) {
    countWord = 'Two';
  } else if (count > 2) {
    countWord = `${count}`;
  }
  return (
    `${countWord} controllers reconcile it${who ? `: ${who}` : ''}. ` +
    `Make their --watch-label-selector exclusive so exactly one matches, e.g. run the main controllers with ` +
    `!${LABELS.shardKey}.`
  );
}
