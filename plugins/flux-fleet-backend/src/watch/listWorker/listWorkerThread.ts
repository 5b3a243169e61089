/*
 * The list worker's thread (see ListWorker): reads the pages of Flux lists it is sent, normalises their items and
 * sends the records back in batches. Loaded only as a worker's entry.
 */
import { parentPort } from 'node:worker_threads';
import { normalizeFluxObject, ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import { listBodyReader, type ListPageReader } from '../ListBodyReader';
import { RecordBatchWriter } from './recordBatch';
import type { FromListWorker, ToListWorker } from './messages';

/** A page being read. */
interface Page {
  /** Hands each item over normalised, into the batch. */
  reader: ListPageReader;
  writer: RecordBatchWriter;
  /** Items that could not be normalised: the main thread reads them again, to log and count them. */
  malformed: unknown[];
  failure?: string;
}

// Only for sharing within a batch (equal label sets and references are sent once); the main thread pools again.
// Small: what the thread grows into stays with the process after it stops (ListWorker).
const pool = new ValuePool(16_384);
const pages = new Map<number, Page>();
const port = parentPort!;

function post(message: FromListWorker) {
  port.postMessage(message);
}

function open(cluster: string, kind: string, apiVersion: string): Page {
  const writer = new RecordBatchWriter();
  const options = { kind, apiVersion, pool };
  const page: Page = {
    reader: listBodyReader(item => {
      const { record } = normalizeFluxObject(cluster, item, options);
      if (record) writer.add(record);
      else page.malformed.push(item);
    }),
    writer,
    malformed: [],
  };
  return page;
}

/** Sends what the page has read so far. */
function flush(id: number, page: Page) {
  if (page.writer.size === 0 && page.malformed.length === 0) return;
  post({ type: 'records', page: id, batch: page.writer.take(), malformed: page.malformed });
  page.malformed = [];
}

function failure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

port.on('message', (message: ToListWorker) => {
  switch (message.type) {
    case 'open':
      pages.set(message.page, open(message.cluster, message.kind, message.apiVersion));
      return;
    case 'chunk': {
      const page = pages.get(message.page);
      if (!page || page.failure) return;
      try {
        page.reader.write(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
      } catch (error) {
        page.failure = failure(error);
      }
      flush(message.page, page);
      return;
    }
    case 'end': {
      const page = pages.get(message.page);
      pages.delete(message.page);
      if (!page) return;
      let rest: unknown;
      let error = page.failure;
      if (error === undefined) {
        try {
          rest = page.reader.end();
        } catch (e) {
          error = failure(e);
        }
      }
      if (error === undefined) flush(message.page, page);
      post(error === undefined ? { type: 'end', page: message.page, rest } : { type: 'end', page: message.page, error });
      return;
    }
    case 'drop':
      pages.delete(message.page);
      return;
    default:
  }
});

post({ type: 'ready' });
