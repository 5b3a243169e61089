/**
 * JSON already serialised, in parts (a list page: its head and its objects' stored text), and how it is sent.
 *
 * A large page is encoded into a Buffer taken from a small pool and given back once the response has written it,
 * rather than into a new Buffer per page: the product's first sync of fleet L asks for about 5,400 pages of 1 MB
 * or more, and a new Buffer is an ArrayBuffer of its own, which V8 counts as external memory and answers with
 * collections of the whole heap. Measured on 2026-12-04, the pool (with the other changes of the fleet-sim README's
 * "What the simulator costs at fleet L") did not lower the simulator's collections at L: the rest of Node's Buffers
 * still started them, until `bin/fleet-sim` counted that memory towards the heap's own limit (the same README, "What
 * started those full collections").
 */
import type { ServerResponse } from 'node:http';

/** The headers of a whole JSON answer of `bytes` bytes. */
export function jsonHeaders(contentType: string, bytes: number) {
  return { 'Content-Type': contentType, 'Content-Length': bytes, 'Cache-Control': 'no-cache, private' };
}

export class JsonText {
  constructor(readonly parts: readonly string[]) {}
}

/** Buffers no response holds now; a few at most (one per large list in flight). */
const free: Buffer[] = [];
const MAX_FREE = 16;
/**
 * Answers up to this size (a label-selected list, a page of small objects) are encoded into a Buffer of their own,
 * which Node cuts from its shared 8 KB slabs or allocates exactly: the Kubernetes plugin's views ask 100 clusters
 * at once for such lists, more than the pool holds, and a pooled buffer per answer would be far larger than it.
 */
const POOLED_FROM_BYTES = 256 * 1024;
/** Pooled buffers grow in steps of this, so that pages of about the same size reuse one. */
const POOL_STEP_BYTES = 2 ** 20;

function take(bytes: number): Buffer {
  const buffer = free.pop();
  if (buffer && buffer.length >= bytes) return buffer;
  // too small for this page: left to the collector; the pool keeps the larger one from now on
  return Buffer.allocUnsafeSlow(Math.ceil(bytes / POOL_STEP_BYTES) * POOL_STEP_BYTES);
}

function give(buffer: Buffer): void {
  if (free.length < MAX_FREE) free.push(buffer);
}

/** Writes JSON text as the whole answer, with its length. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: JsonText,
  contentType: string,
): void {
  let bytes = 0;
  for (const part of text.parts) bytes += Buffer.byteLength(part);
  if (bytes < POOLED_FROM_BYTES) {
    const payload = Buffer.from(text.parts.join(''));
    res.writeHead(status, jsonHeaders(contentType, payload.length));
    res.end(payload);
    return;
  }
  const buffer = take(bytes);
  let at = 0;
  for (const part of text.parts) at += buffer.write(part, at);
  res.writeHead(status, jsonHeaders(contentType, bytes));
  // the buffer is the response's until it has been written (or the response failed)
  let given = false;
  const giveBack = () => {
    if (given) return;
    given = true;
    give(buffer);
  };
  res.end(buffer.subarray(0, bytes), giveBack);
  res.once('close', () => {
    // a response closed before it finished may still be referenced by the socket: never reused then
    given = true;
  });
}
