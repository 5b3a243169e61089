/** Bytes that matter to the reader. */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Keys longer than this are not remembered (only `items` matters). */
const MAX_KEY_BYTES = 16;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Reads the JSON body of a Kubernetes list (`{"kind":…,"metadata":{…},"items":[{…},{…}]}`) as it arrives, chunk
 * by chunk, and hands over each element of `items` as soon as its last byte is in, parsed on its own. The page
 * is never held whole, as one string nor as one parsed tree: only the item being read is, so a page of hundreds
 * of large objects costs the memory of one of them, and nothing of it outlives the young generation. What
 * surrounds the items (kind, metadata with `continue` and `resourceVersion`) is kept, with `items` empty, and
 * parsed at the end.
 *
 * It only follows nesting and strings (with their escapes): JSON that is not valid is reported by `JSON.parse`
 * of an item or of the rest. Multi-byte UTF-8 never contains the ASCII bytes it looks for, so reading bytes is
 * exact, and items are cut at ASCII bytes.
 */
export class ListBodyReader {
  /** Nesting depth after the bytes read so far (1 inside the top-level object, 2 inside `items`). */
  private depth = 0;
  private inString = false;
  /** A backslash ended the last chunk inside a string: the next byte is escaped. */
  private escapePending = false;
  /** Bytes of the string being read at depth 1, up to {@link MAX_KEY_BYTES}. */
  private stringBytes: number[] = [];
  /** The last string closed at depth 1, when short enough to be a key that matters. */
  private lastString: string | undefined;
  /** The key whose value comes next at depth 1. */
  private pendingKey: string | undefined;
  /** Inside the `items` array. */
  private inItems = false;
  /** An item has started and not ended. */
  private itemOpen = false;
  /** Where the open item's bytes start in the current chunk. */
  private itemStart = 0;
  /** Whether the open item is an object or array (it ends at its closing bracket) rather than a scalar. */
  private itemIsContainer = false;
  /** The open item's bytes from earlier chunks. */
  private carry: Buffer[] = [];
  /** The bytes outside the items, copied. */
  private readonly outer: Buffer[] = [];
  private failure: Error | undefined;
  private count = 0;

  constructor(private readonly onItem: (item: unknown) => void) {}

  /** Items handed over so far. */
  get itemCount(): number {
    return this.count;
  }

  /** Reads the next chunk of the body. */
  write(chunk: Buffer): void {
    if (this.failure) return;
    const n = chunk.length;
    // the state in locals while the bytes are read: this loop is the reader's cost
    let depth = this.depth;
    let inItems = this.inItems;
    /** Start of the bytes of this chunk that belong outside the items; -1 while inside them. */
    let outerStart = inItems ? -1 : 0;
    if (this.itemOpen) this.itemStart = 0;
    let i = 0;
    if (this.inString) {
      this.depth = depth;
      i = this.skipString(chunk, 0);
    }
    while (i < n) {
      const byte = chunk[i];
      if (byte === QUOTE) {
        if (inItems && depth === 2 && !this.itemOpen) this.openItem(i, false);
        this.inString = true;
        this.stringBytes = [];
        this.depth = depth;
        i = this.skipString(chunk, i + 1);
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (inItems && depth === 2 && !this.itemOpen) this.openItem(i, true);
        if (depth === 1 && byte === OPEN_BRACKET && this.pendingKey === 'items') {
          // keep `"items":[` with what surrounds the items; skip what is inside
          this.keepOuter(chunk, outerStart, i + 1);
          outerStart = -1;
          inItems = true;
          this.pendingKey = undefined;
        }
        depth++;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (inItems && depth === 2) {
          // the items end: what follows is outside them again
          if (this.itemOpen) this.deliver(chunk, i);
          inItems = false;
          outerStart = i;
        } else if (inItems && depth === 3 && this.itemOpen && this.itemIsContainer) {
          this.deliver(chunk, i + 1);
        }
        depth--;
      } else if (byte === COMMA) {
        if (inItems && depth === 2 && this.itemOpen) this.deliver(chunk, i);
        else if (depth === 1) this.pendingKey = undefined;
      } else if (byte === COLON) {
        if (depth === 1) this.pendingKey = this.lastString;
      } else if (inItems && depth === 2 && !this.itemOpen && !isWhitespace(byte)) {
        this.openItem(i, false);
      }
      if (this.failure) return;
      i++;
    }
    this.depth = depth;
    this.inItems = inItems;
    if (this.itemOpen) {
      // the item goes on in the next chunk: keep a copy of its bytes so far (the chunk may be reused)
      this.carry.push(Buffer.from(chunk.subarray(this.itemStart)));
    }
    if (outerStart >= 0) this.keepOuter(chunk, outerStart, n);
  }

  private openItem(at: number, container: boolean) {
    this.itemOpen = true;
    this.itemStart = at;
    this.itemIsContainer = container;
  }

  /**
   * The body is complete: returns what surrounds the items, parsed, with `items` empty (or as it was, when it was
   * not a list). Throws when the body is not JSON.
   */
  end(): unknown {
    if (this.failure) throw this.failure;
    if (this.inItems || this.inString || this.depth !== 0) {
      throw new SyntaxError('the body ends before its JSON does');
    }
    return JSON.parse(Buffer.concat(this.outer).toString('utf8'));
  }

  private keepOuter(chunk: Buffer, start: number, end: number) {
    if (start >= 0 && end > start) this.outer.push(Buffer.from(chunk.subarray(start, end)));
  }

  /** Reads the string that goes on at `from` up to its closing quote or the chunk's end; returns where it stopped. */
  private skipString(chunk: Buffer, from: number): number {
    const n = chunk.length;
    let i = from;
    if (this.escapePending) {
      // the byte a backslash at the end of the previous chunk escapes
      this.escapePending = false;
      i++;
    }
    // a plain loop: the strings of a list are short, shorter than a native search is worth
    while (i < n) {
      const byte = chunk[i];
      if (byte === QUOTE) break;
      i += byte === BACKSLASH ? 2 : 1;
    }
    if (this.depth === 1) this.keepStringBytes(chunk, from, Math.min(i, n));
    if (i >= n) {
      // the string goes on in the next chunk, perhaps with the byte a backslash here escapes
      this.escapePending = i > n;
      return n;
    }
    if (this.depth === 1) {
      this.lastString =
        this.stringBytes.length <= MAX_KEY_BYTES ? String.fromCharCode(...this.stringBytes) : undefined;
    }
    this.inString = false;
    return i + 1;
  }

  private keepStringBytes(chunk: Buffer, start: number, end: number) {
    for (let i = start; i < end && this.stringBytes.length <= MAX_KEY_BYTES; i++) {
      this.stringBytes.push(chunk[i]);
    }
  }

  /** The open item ends before `end` of this chunk: parse it and hand it over. */
  private deliver(chunk: Buffer, end: number) {
    let text: string;
    if (this.carry.length > 0) {
      this.carry.push(chunk.subarray(this.itemStart, end));
      text = Buffer.concat(this.carry).toString('utf8');
      this.carry = [];
    } else {
      text = chunk.toString('utf8', this.itemStart, end);
    }
    this.itemOpen = false;
    let item: unknown;
    try {
      item = JSON.parse(text);
    } catch (error) {
      this.failure = error instanceof Error ? error : new SyntaxError(String(error));
      return;
    }
    this.count++;
    this.onItem(item);
  }
}

/**
 * Reads the body of one page of a list as it arrives, handing its items over as it goes: a {@link ListBodyReader}
 * on this thread or the list worker's (`ClusterClient.getListWith`).
 */
export interface ListPageReader {
  write(chunk: Buffer): void;
  /** The body is complete: what surrounds the items (kind, metadata), once every item has been handed over. */
  end(): unknown;
  /** The request failed or stopped: what has not been handed over is dropped. */
  abandon(): void;
}

/**
 * Reads a page with a {@link ListBodyReader}; items it could not tell apart from the rest (a key written with
 * escapes) are handed over at the end too, so that `end` returns what surrounds the items only.
 */
export function listBodyReader(onItem: (item: unknown) => void): ListPageReader {
  const reader = new ListBodyReader(onItem);
  return {
    write: chunk => reader.write(chunk),
    end: () => {
      const rest = reader.end() as { items?: unknown } | null;
      if (Array.isArray(rest?.items) && rest!.items.length > 0) {
        for (const item of rest!.items) onItem(item);
        rest!.items = [];
      }
      return rest;
    },
    abandon: () => {},
  };
}
