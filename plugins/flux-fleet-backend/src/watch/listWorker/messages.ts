import type { RecordBatch } from './recordBatch';

/** What the main thread sends the list worker, per page of a list (pages are numbered by the main thread). */
export type ToListWorker =
  /** A page of a list of Flux objects of `kind` starts. */
  | { type: 'open'; page: number; cluster: string; kind: string; apiVersion: string }
  /** The next bytes of its body (the buffer is transferred). */
  | { type: 'chunk'; page: number; bytes: Uint8Array }
  /** Its body is complete. */
  | { type: 'end'; page: number }
  /** Its request failed or was stopped: forget it. */
  | { type: 'drop'; page: number };

/** What the list worker sends back, in order for each page. */
export type FromListWorker =
  /** Its entry has loaded: it reads pages. */
  | { type: 'ready' }
  /** Records of the page, and the items that could not be normalised (the main thread reads those again). */
  | { type: 'records'; page: number; batch: RecordBatch; malformed: unknown[] }
  /** The page is read: what surrounds its items (kind, metadata), or why its body could not be read. */
  | { type: 'end'; page: number; rest?: unknown; error?: string };
