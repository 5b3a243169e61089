import type { LoggerService } from '@backstage/backend-plugin-api';
import type { FluxObjectRecord, ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import { Worker } from 'node:worker_threads';
import type { ListPageReader } from '../ListBodyReader';
import { KubernetesRequestError } from '../KubernetesRequestError';
import type { FromListWorker, ToListWorker } from './messages';
import { readRecordBatch } from './recordBatch';

/**
 * A sink of Flux objects of one kind whose lists the worker can read: what it needs to normalise them there, and
 * where the records go (as the sink's `upsert` of the raw objects would store them).
 */
export interface NormalizedSink {
  readonly cluster: string;
  readonly kind: string;
  readonly apiVersion: string;
  /** The main thread's pool, which the records' strings are shared through. */
  readonly pool: ValuePool;
  upsert(record: FluxObjectRecord): void;
}

/** Where what the worker read of a page goes. */
export interface ListWorkerTarget extends NormalizedSink {
  /** An item the worker could not normalise, as read: the main thread reads it again to log and count it. */
  malformed(item: unknown): void;
}

/** Bytes of a body sent to the worker at once: one message per 128 KiB rather than per TLS record or frame. */
const CHUNK_BYTES = 128 * 1024;
/**
 * The worker is stopped this long after its last page, so that a synced backend runs no thread for the rare relist
 * (what the thread's heap grew into stays with the process either way: backend README, "A second thread for the
 * lists"); starting it again takes a fraction of a second on the other core.
 */
const IDLE_MS = 1_000;
/** After this many failures of a worker that had started, lists are read on the main thread for good. */
const MAX_FAILURES = 3;

/**
 * Starts the worker's thread: its entry is TypeScript where the backend runs from source (`make start`, tests),
 * so the Backstage CLI's transform is loaded first there.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.transform) require(workerData.transform);
require(workerData.entry);
`;

interface OpenPage {
  target: ListWorkerTarget;
  /** A record or malformed item the target refused: the page fails with it. */
  error?: unknown;
  ended?: { resolve: (rest: unknown) => void; reject: (error: unknown) => void };
}

/** The first line of an error's message (a module not found goes on with its require stack). */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0].replace(/^Error: /, '');
}

/**
 * Where the worker's entry is, and the transform it needs first; an error when the entry cannot be found. The entry
 * is an entry point of the package (`exports` in package.json), so that the published package has it built on its
 * own in `dist/` beside the bundle of the rest.
 */
function workerEntry(given?: string): { entry: string; transform?: string } | { error: string } {
  try {
    const entry = given ?? require.resolve('@flux-fleet/plugin-flux-fleet-backend/listWorkerThread');
    if (!entry.endsWith('.ts')) return { entry };
    return { entry, transform: require.resolve('@backstage/cli-node/config/nodeTransform.cjs') };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Reads the pages of Flux lists on a second thread: cutting the items out of the bytes, `JSON.parse` of each and
 * normalising it, which were about a quarter of the main thread's time in a first sync of fleet L (backend README,
 * "What remains at L"). The main thread sends the bytes as they arrive and gets back records in batches
 * ({@link readRecordBatch}), which it pools and stores as before. Workloads stay on the main thread (read here
 * too, the first sync at L was slower: their items are small, and they queued behind the Flux pages). One worker
 * serves every cluster; it starts with the first page and stops when no page is open for a second. When it cannot
 * start, or fails repeatedly, lists are read on the main thread as before (logged once); a page whose worker fails
 * fails like a broken connection, and its list is read again.
 */
export class ListWorker {
  private worker?: Worker;
  private readonly pages = new Map<number, OpenPage>();
  private nextPage = 1;
  private idle?: NodeJS.Timeout;
  private failures = 0;
  private unavailable = false;
  private closed = false;

  private readonly idleMs: number;
  private readonly entry?: string;

  constructor(
    private readonly logger: LoggerService,
    options: {
      /** How long it runs without a page before it stops. */
      idleMs?: number;
      /** Another entry for the worker's thread (tests: one that fails). */
      entry?: string;
    } = {},
  ) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.entry = options.entry;
  }

  /** Whether pages are read by the worker (false once it could not start or failed too often). */
  get available(): boolean {
    return !this.unavailable && !this.closed;
  }

  /** Whether the worker's thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** A reader for one page of a list, or undefined when lists are read on the main thread. */
  pageReader(target: ListWorkerTarget): ListPageReader | undefined {
    const worker = this.available ? this.start() : undefined;
    if (!worker) return undefined;
    clearTimeout(this.idle);
    const id = this.nextPage++;
    const page: OpenPage = { target };
    this.pages.set(id, page);
    const { cluster, kind, apiVersion } = target;
    this.post(worker, { type: 'open', page: id, cluster, kind, apiVersion });
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = () => {
      if (pendingBytes === 0) return;
      const bytes = new Uint8Array(pendingBytes);
      let offset = 0;
      for (const chunk of pending) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
      pending = [];
      pendingBytes = 0;
      this.post(worker, { type: 'chunk', page: id, bytes }, [bytes.buffer]);
    };
    return {
      write: chunk => {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= CHUNK_BYTES) flush();
      },
      end: () =>
        new Promise<unknown>((resolve, reject) => {
          if (!this.pages.has(id)) {
            reject(page.error);
            return;
          }
          flush();
          page.ended = { resolve, reject };
          this.post(worker, { type: 'end', page: id });
        }),
      abandon: () => {
        if (!this.pages.delete(id)) return;
        if (this.worker === worker) this.post(worker, { type: 'drop', page: id });
        this.idleLater();
      },
    };
  }

  /** Stops the worker (the backend stops); lists are read on the main thread from then on. */
  close(): void {
    this.closed = true;
    this.stop('the backend stops');
  }

  private post(worker: Worker, message: ToListWorker, transfer?: ArrayBuffer[]) {
    worker.postMessage(message, transfer);
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    const where = workerEntry(this.entry);
    if ('error' in where) {
      this.giveUp(`its entry was not found (${where.error})`);
      return undefined;
    }
    // ready once its entry has loaded: a worker that fails before that will not do better the next time
    let ready = false;
    // execArgv empty: the worker needs none of the process's flags, and a preloaded transform comes in BOOTSTRAP
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: where, execArgv: [] });
    worker.unref();
    worker.on('message', (message: FromListWorker) => {
      if (message.type === 'ready') ready = true;
      else this.receive(message);
    });
    worker.on('error', error => this.failed(worker, ready, firstLine(error)));
    worker.on('exit', code => {
      if (this.worker === worker) this.failed(worker, ready, `it exited with code ${code}`);
    });
    this.worker = worker;
    return worker;
  }

  private receive(message: Exclude<FromListWorker, { type: 'ready' }>) {
    const page = this.pages.get(message.page);
    if (!page) return;
    if (message.type === 'records') {
      if (page.error !== undefined) return;
      try {
        const { target } = page;
        for (const record of readRecordBatch(message.batch, target.cluster, target.pool)) target.upsert(record);
        for (const item of message.malformed) target.malformed(item);
      } catch (error) {
        page.error = error;
      }
      return;
    }
    this.pages.delete(message.page);
    if (page.error !== undefined) page.ended?.reject(page.error);
    else if (message.error !== undefined) page.ended?.reject(new SyntaxError(message.error));
    else page.ended?.resolve(message.rest);
    this.idleLater();
  }

  private idleLater() {
    if (this.pages.size > 0 || !this.worker) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.pages.size === 0) this.stop();
    }, this.idleMs);
    this.idle.unref();
  }

  /** Ends the worker; the pages still open fail, saying `why`. */
  private stop(why = 'it was stopped') {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    this.failPages(why);
    worker?.terminate().catch(() => undefined);
  }

  /** The pages still open fail like a broken request: their lists are retried. */
  private failPages(why: string) {
    const pages = [...this.pages.values()];
    this.pages.clear();
    for (const page of pages) {
      page.error ??= new KubernetesRequestError({
        cluster: page.target.cluster,
        failure: 'malformed',
        message: `a page of ${page.target.kind} was not read: Flux Fleet's list worker stopped (${why})`,
      });
      page.ended?.reject(page.error);
    }
  }

  private failed(worker: Worker, ready: boolean, why: string) {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failPages(why);
    worker.terminate().catch(() => undefined);
    this.failures++;
    if (!ready) this.giveUp(`could not start (${why})`);
    else if (this.failures >= MAX_FAILURES) this.giveUp(`failed ${this.failures} times (last: ${why})`);
    else this.logger.warn(`Flux Fleet's list worker failed (${why}); the lists it was reading are read again`);
  }

  private giveUp(why: string) {
    if (this.unavailable) return;
    this.unavailable = true;
    this.logger.warn(`Flux Fleet reads lists on the main thread from now on: its list worker ${why}`);
  }
}
