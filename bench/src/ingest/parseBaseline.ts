/**
 * The ingest baseline: plain `JSON.parse` of the list bodies the index reads from every cluster, fetched once
 * from a simulator of the same size and seed. Whatever the index does beyond parsing (normalising, deriving
 * owners, states and boundaries, secondary indexes) is the ratio of its sync time to this.
 */
import { FLUX_GROUPS, METADATA_ONLY_ACCEPT } from '@flux-fleet/plugin-flux-fleet-common';
import { clusterRequest } from '../clusterRequest';
import type { SimulatedCluster } from '../kubeconfig';
import { distribution, msSince, round2 } from '../stats';

/** What parsing the fleet's list bodies costs. */
export interface ParseBaseline {
  /** List pages fetched (`limit=500`, as the index pages). */
  pages: number;
  bytes: number;
  /** Items in those pages: Flux objects, Flux controllers, labelled workloads, namespaces, events. */
  items: number;
  /** Time spent in `JSON.parse` over every page (the median of three passes). */
  parseMs: number;
  /** Heap the parsed pages hold (measured after a garbage collection, cluster by cluster). */
  parsedHeapBytes: number;
}

/** What fetching the fleet's lists costs, with nothing parsed: the floor under any sync. */
export interface ListsBaseline {
  /** Wall time to fetch every page of every list (the median of the passes), bodies read as text and dropped. */
  listsMs: number;
  passes: number;
  /** Lists in flight at once, fleet-wide, and items per page: the index's own settings in the same run. */
  concurrentLists: number;
  pageSize: number;
}

const PAGE_SIZE = 500;

/** A collection the index lists, and how it asks for it. */
interface Collection {
  path: string;
  accept?: string;
}

interface ApiGroupList {
  groups: Array<{
    name: string;
    versions: Array<{ version: string }>;
    preferredVersion?: { version: string };
  }>;
}
interface ApiResourceList {
  resources: Array<{ name: string; kind: string; verbs?: string[] }>;
}

async function getJson<T>(
  cluster: SimulatedCluster,
  path: string,
): Promise<T | undefined> {
  const answer = await clusterRequest(cluster, path);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) {
    throw new Error(
      `cluster ${cluster.name}: GET ${path} answered ${
        answer.status
      }: ${answer.text.slice(0, 200)}`,
    );
  }
  return JSON.parse(answer.text) as T;
}

/**
 * The collection paths the index lists on a cluster: every Flux kind at its group's preferred version (or the
 * first version that serves it), the Flux controllers, labelled workloads, namespaces and events.
 */
async function listPaths(cluster: SimulatedCluster): Promise<Collection[]> {
  const paths: Collection[] = [];
  const groups = (await getJson<ApiGroupList>(cluster, '/apis'))?.groups ?? [];
  for (const group of groups) {
    const wanted = new Set<string>(
      (FLUX_GROUPS as Record<string, readonly string[]>)[group.name] ?? [],
    );
    if (wanted.size === 0) continue;
    const preferred = group.preferredVersion?.version;
    const versions = [
      preferred,
      ...group.versions.map(v => v.version).filter(v => v !== preferred),
    ];
    for (const version of versions) {
      if (!version || wanted.size === 0) continue;
      const list = await getJson<ApiResourceList>(
        cluster,
        `/apis/${group.name}/${version}`,
      );
      for (const resource of list?.resources ?? []) {
        if (!resource.name.includes('/') && wanted.delete(resource.kind)) {
          paths.push({ path: `/apis/${group.name}/${version}/${resource.name}` });
        }
      }
    }
  }
  paths.push(
    {
      path: `/apis/apps/v1/deployments?labelSelector=${encodeURIComponent(
        'app.kubernetes.io/part-of=flux',
      )}`,
    },
    // workloads and namespaces as their metadata alone, as the index lists them
    {
      path: `/apis/apps/v1/deployments?labelSelector=${encodeURIComponent(
        'backstage.io/kubernetes-id',
      )}`,
      accept: METADATA_ONLY_ACCEPT.list,
    },
    { path: '/api/v1/namespaces', accept: METADATA_ONLY_ACCEPT.list },
    // the simulator's Events are all about Flux objects: the index's field selector would keep every one
    { path: '/api/v1/events' },
  );
  return paths;
}

/**
 * The continue token of a list page. Read from what comes before `items` (where the API server writes the list's
 * metadata), so that the lists baseline parses almost nothing; the whole page when that is not how it is written.
 */
export function continueToken(text: string): string | undefined {
  type Head = { metadata?: { continue?: string } };
  const items = text.indexOf('"items"');
  let head: Head | undefined;
  if (items > 0) {
    try {
      head = JSON.parse(`${text.slice(0, items)}"items":[]}`) as Head;
    } catch {
      head = undefined;
    }
  }
  const token = (head?.metadata ? head : (JSON.parse(text) as Head)).metadata?.continue;
  return token ? token : undefined;
}

/** Every page of one collection, as text, `pageSize` items a page; `keep` false drops each page once read. */
async function fetchPages(
  cluster: SimulatedCluster,
  { path, accept }: Collection,
  pageSize = PAGE_SIZE,
  keep = true,
): Promise<string[]> {
  const pages: string[] = [];
  let next: string | undefined = '';
  while (next !== undefined) {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await clusterRequest(
      cluster,
      `${path}${separator}limit=${pageSize}${
        next ? `&continue=${encodeURIComponent(next)}` : ''
      }`,
      { accept },
    );
    if (answer.status !== 200) {
      throw new Error(
        `cluster ${cluster.name}: list ${path} answered ${
          answer.status
        }: ${answer.text.slice(0, 200)}`,
      );
    }
    if (keep) pages.push(answer.text);
    next = continueToken(answer.text);
  }
  return pages;
}

/**
 * Fetches every list the index reads, `concurrentLists` at a time fleet-wide as the index does, each page by page,
 * and times it: the simulator serving the bodies and this process receiving them as text, nothing parsed. No sync
 * can be shorter. `passes` passes; the median counts.
 */
export async function measureListsBaseline(
  clusters: SimulatedCluster[],
  options: { concurrentLists: number; pageSize: number; passes: number },
): Promise<ListsBaseline> {
  const lists: Array<{ cluster: SimulatedCluster; collection: Collection }> = [];
  for (const cluster of clusters) {
    for (const collection of await listPaths(cluster)) lists.push({ cluster, collection });
  }
  const times: number[] = [];
  for (let pass = 0; pass < options.passes; pass++) {
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: options.concurrentLists }, async () => {
        while (next < lists.length) {
          const { cluster, collection } = lists[next++];
          await fetchPages(cluster, collection, options.pageSize, false);
        }
      }),
    );
    times.push(msSince(started));
  }
  return {
    listsMs: distribution(times).p50,
    passes: options.passes,
    concurrentLists: options.concurrentLists,
    pageSize: options.pageSize,
  };
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapUsedAfterGc(): number {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * Fetches every list page of every cluster (one cluster at a time, so that memory stays bounded at fleet L) and
 * times `JSON.parse` of them. Needs `--expose-gc` for the memory figure.
 */
export async function measureParseBaseline(
  clusters: SimulatedCluster[],
): Promise<ParseBaseline> {
  if (!gc)
    throw new Error(
      'the parse baseline needs node --expose-gc (yarn bench in bench/ passes it)',
    );
  const result: ParseBaseline = {
    pages: 0,
    bytes: 0,
    items: 0,
    parseMs: 0,
    parsedHeapBytes: 0,
  };
  for (const cluster of clusters) {
    const pages: string[] = [];
    for (const path of await listPaths(cluster))
      pages.push(...(await fetchPages(cluster, path)));
    result.pages += pages.length;
    result.bytes += pages.reduce(
      (sum, page) => sum + Buffer.byteLength(page),
      0,
    );

    const passes: number[] = [];
    let kept: unknown[] = [];
    for (let pass = 0; pass < 3; pass++) {
      kept = [];
      const before = heapUsedAfterGc();
      const started = process.hrtime.bigint();
      for (const page of pages) kept.push(JSON.parse(page));
      passes.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (pass === 2) result.parsedHeapBytes += heapUsedAfterGc() - before;
    }
    result.items += kept.reduce<number>(
      (sum, list) => sum + ((list as { items?: unknown[] }).items?.length ?? 0),
      0,
    );
    result.parseMs += passes.sort((a, b) => a - b)[1];
  }
  result.parseMs = round2(result.parseMs);
  return result;
}
