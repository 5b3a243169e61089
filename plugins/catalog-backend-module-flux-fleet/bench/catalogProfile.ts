// Where the catalog's time goes during the ingest benchmark: the wall time of every database statement, grouped by
// statement and table (the catalog's processing writes refresh_state and relations, its stitching final_entities,
// search and stitch_queue), and the rows of each of those tables at a moment (how far processing and stitching are).
import type { Knex } from 'knex';

/** Milliseconds and statement count of one kind of statement, e.g. `insert relations`. */
export interface StatementFigure {
  statement: string;
  ms: number;
  count: number;
}

/** Rows of the catalog's tables at one moment. */
export interface CatalogTableRows {
  /** Entities the providers handed over (refresh_state). */
  received: number;
  /** Of those, processed at least once. */
  processed: number;
  /** Stitched entities, what the catalog's API serves (final_entities). */
  stitched: number;
  /** Entities waiting in the stitch queue. */
  stitchQueue: number;
  relations: number;
  searchRows: number;
}

/** `insert relations`, `select refresh_state`: the verb and the first table a statement names. */
export function statementKind(sql: string): string {
  const text = sql.trim().toLowerCase();
  const verb = text.match(/^\w+/)?.[0] ?? '?';
  const table = text.match(/\b(?:from|into|update)\s+[`"]?(\w+)/)?.[1] ?? '?';
  return `${verb} ${table}`;
}

/** Times every statement the knex instance runs, until `stop()`. */
export function profileStatements(knex: Knex): { stop(): void; top(n: number): StatementFigure[] } {
  const started = new Map<string, { at: bigint; kind: string }>();
  const figures = new Map<string, StatementFigure>();
  const onQuery = (query: { __knexQueryUid: string; sql: string }) => {
    started.set(query.__knexQueryUid, { at: process.hrtime.bigint(), kind: statementKind(query.sql) });
  };
  const onDone = (_response: unknown, query: { __knexQueryUid: string }) => {
    const start = started.get(query.__knexQueryUid);
    if (!start) return;
    started.delete(query.__knexQueryUid);
    const figure = figures.get(start.kind) ?? { statement: start.kind, ms: 0, count: 0 };
    figure.ms += Number(process.hrtime.bigint() - start.at) / 1e6;
    figure.count += 1;
    figures.set(start.kind, figure);
  };
  const onError = (_error: unknown, query: { __knexQueryUid: string }) => onDone(undefined, query);
  knex.on('query', onQuery).on('query-response', onDone).on('query-error', onError);
  return {
    stop: () => {
      knex.removeListener('query', onQuery);
      knex.removeListener('query-response', onDone);
      knex.removeListener('query-error', onError);
    },
    top: n =>
      [...figures.values()]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, n)
        .map(f => ({ ...f, ms: Math.round(f.ms) })),
  };
}

/** How far the catalog is: rows of its tables (each a count query, not free on SQLite: call it now and then). */
export async function catalogTableRows(knex: Knex): Promise<CatalogTableRows> {
  const count = async (table: string, where?: (q: Knex.QueryBuilder) => void) => {
    const query = knex(table).count({ n: '*' });
    where?.(query);
    const [{ n }] = await query;
    return Number(n);
  };
  return {
    received: await count('refresh_state'),
    processed: await count('refresh_state', q => q.whereNotNull('processed_entity')),
    stitched: await count('final_entities', q => q.whereNotNull('final_entity')),
    stitchQueue: await count('stitch_queue'),
    relations: await count('relations'),
    searchRows: await count('search'),
  };
}
