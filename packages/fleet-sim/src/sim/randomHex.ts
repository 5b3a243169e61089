/**
 * Random lowercase hex digits (`bytes` × 2 of them), for the revisions, digests and event names that the churn writes
 * hundreds of times a second. Not `crypto.randomBytes`: each call makes a Buffer, an ArrayBuffer of its own, and
 * in the simulator of fleet L (a heap of several GB) those calls were 41 s of its CPU during the product's first
 * sync (profile of 2026-12-04), more than serving the lists. Nothing here needs a cryptographic source: the values
 * only have to look like Flux's and not repeat.
 */
export function randomHex(bytes: number): string {
  let text = '';
  while (text.length < bytes * 2) {
    text += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  }
  return text.slice(0, bytes * 2);
}
