/**
 * A JSON array's text from its elements' JSON, some kept as UTF-8 bytes, some fresh text, between an opening and a
 * closing text, as one UTF-8 buffer. Consecutive texts are joined and encoded once: encoding each object's text on
 * its own made a cold entity view (none of its objects kept) a quarter slower than serialising the whole view at
 * once (0.89 against 0.70 ms of CPU a view at fleet M, 2026-12-04).
 */
export function joinJsonArray(open: string, elements: ReadonlyArray<Buffer | string>, close: string): Buffer {
  const out: Buffer[] = [];
  let text = open;
  elements.forEach((element, i) => {
    if (i > 0) text += ',';
    if (typeof element === 'string') {
      text += element;
      return;
    }
    out.push(Buffer.from(text), element);
    text = '';
  });
  out.push(Buffer.from(text + close));
  return Buffer.concat(out);
}
