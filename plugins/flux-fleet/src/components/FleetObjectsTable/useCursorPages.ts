import { useApi } from '@backstage/core-plugin-api';
import {
  FleetObject,
  ObjectQuery,
  Page,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useCallback, useMemo, useState } from 'react';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';

/** The filters and order of the objects table: an `ObjectQuery` without its paging. */
export type ObjectFilters = Omit<ObjectQuery, 'cursor' | 'limit'>;

/**
 * Server-side paging of `GET /objects` with its cursor: page n is read with the cursor page n-1 gave, so only one
 * page is ever fetched and held, however large the fleet. The cursors of the pages visited are kept so "previous"
 * needs no offset. A change of filters, order or page size starts again at the first page; `refresh` re-reads the
 * current page in place (live updates).
 */
export function useCursorPages(filters: ObjectFilters, limit: number) {
  const api = useApi(fluxFleetApiRef);
  const filtersKey = JSON.stringify(filters);
  const pagingKey = `${filtersKey}|${limit}`;
  // cursors[i] reads page i; the first page needs none.
  const [paging, setPaging] = useState<{
    key: string;
    cursors: Array<string | undefined>;
    index: number;
  }>({ key: pagingKey, cursors: [undefined], index: 0 });
  const firstPage = useMemo(
    () => ({ key: pagingKey, cursors: [undefined], index: 0 }),
    [pagingKey],
  );
  if (paging.key !== pagingKey) {
    // New filters, order or page size: forget the old cursors (React re-renders at once with this state).
    setPaging(firstPage);
  }
  const current = paging.key === pagingKey ? paging : firstPage;
  const cursor = current.cursors[current.index];

  const page = useRefreshable<Page<FleetObject>>(
    () => api.getObjects({ ...filters, limit, cursor }),
    // filtersKey stands for filters
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, filtersKey, limit, cursor],
    { keepOnChange: true },
  );

  const next = useCallback(() => {
    const nextCursor = page.value?.nextCursor;
    if (!nextCursor) {
      return;
    }
    setPaging({
      key: pagingKey,
      cursors: [...current.cursors.slice(0, current.index + 1), nextCursor],
      index: current.index + 1,
    });
  }, [page.value, pagingKey, current]);

  const previous = useCallback(() => {
    if (current.index === 0) {
      return;
    }
    setPaging({ ...current, index: current.index - 1 });
  }, [current]);

  return useMemo(
    () => ({
      page,
      /** The 0-based index of the page shown. */
      index: current.index,
      /** The position of the first row shown, 0-based. */
      offset: current.index * limit,
      hasNext: Boolean(page.value?.nextCursor),
      hasPrevious: current.index > 0,
      next,
      previous,
    }),
    [page, current.index, limit, next, previous],
  );
}
