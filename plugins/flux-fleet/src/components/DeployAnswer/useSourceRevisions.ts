import { useApi } from '@backstage/core-plugin-api';
import {
  FleetObject,
  FluxKind,
  RECONCILER_KINDS,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { fluxFleetApiRef } from '../../api';
import {
  artifactSourceKey,
  artifactSourceOf,
  sourceRevisionsOf,
} from '../../lib/deployAnswer';

/**
 * The artifact revisions of the sources the entity's reconcilers apply: those among the view's own objects, and
 * the others read once per source (`GET /objects/...`) whenever a reconciler's revision or state changes. A source
 * that cannot be read is left out: its lines then say the revision without "up to date" or "behind".
 */
export function useSourceRevisions(
  objects: readonly FleetObject[] | undefined,
): Map<string, string> {
  const api = useApi(fluxFleetApiRef);
  const own = sourceRevisionsOf(objects ?? []);
  const missing = new Map<string, FleetObject>();
  for (const o of objects ?? []) {
    if (!RECONCILER_KINDS.includes(o.ref.kind)) continue;
    const key = artifactSourceKey(o);
    if (key && !own.has(key)) missing.set(key, o);
  }
  // what should make the sources be read again: which are missing, and what their reconcilers show
  const trigger = [...missing.entries()]
    .map(([key, o]) => `${key}=${o.state.revision}:${o.state.state}`)
    .sort()
    .join(',');
  const { value } = useAsync(async () => {
    const read = await Promise.allSettled(
      [...missing.entries()].map(async ([key, o]) => {
        const source = artifactSourceOf(o)!;
        const detail = await api.getObject({
          cluster: o.ref.cluster,
          namespace: source.namespace,
          kind: source.kind as FluxKind,
          name: source.name,
        });
        return [key, detail.state.revision] as const;
      }),
    );
    const found = new Map<string, string>();
    for (const r of read) {
      if (r.status === 'fulfilled' && r.value[1])
        found.set(r.value[0], r.value[1]);
    }
    return found;
    // trigger stands for missing
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, trigger]);
  // one Map per change, so the views that take it re-render only when a revision changed
  const ownKey = [...own.entries()].join(',');
  return useMemo(
    () => new Map([...(value ?? []), ...own]),
    // ownKey stands for own
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [value, ownKey],
  );
}
