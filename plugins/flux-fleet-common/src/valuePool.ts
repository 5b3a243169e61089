/**
 * A bounded pool of shared values, so that the many equal strings and small objects of a large fleet
 * (namespaces, condition reasons, label values, revisions, label sets, source references) use one copy in
 * memory instead of one per Flux object.
 *
 * JSON parsing gives every occurrence of a value its own copy; with 100k+ objects in the index that is most of
 * its memory. Each kind of value is kept in two generations of at most `limit` entries: when the current
 * generation is full it becomes the previous one and the oldest is dropped, so the pool never grows without
 * bound, while values still in use keep being shared.
 */
class Generations<K, T> {
  private current = new Map<K, T>();
  private previous = new Map<K, T>();

  constructor(private readonly limit: number) {}

  get(key: K): T | undefined {
    const found = this.current.get(key);
    if (found !== undefined) return found;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: T) {
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  get size() {
    return this.current.size + this.previous.size;
  }
}

type LabelSet = Readonly<Record<string, string>>;

/** Shares equal strings and equal small objects between records. */
export class ValuePool {
  private readonly strings: Generations<string, string>;
  private readonly objects: Generations<string, object>;
  /** Label sets by a hash of their content; a bucket holds the sets whose hashes collide. */
  private readonly labelSets: Generations<number, LabelSet | LabelSet[]>;

  /**
   * @param limit - entries per generation and kind of value.
   * @param maxLength - strings longer than this are never pooled: they are rarely repeated and would pin memory.
   */
  constructor(limit = 20_000, private readonly maxLength = 2048) {
    this.strings = new Generations(limit);
    this.objects = new Generations(limit);
    this.labelSets = new Generations(limit);
  }

  /** The pooled copy of `value` (the first equal string seen), or `value` itself. */
  intern(value: string): string {
    if (value.length > this.maxLength) return value;
    const found = this.strings.get(value);
    if (found !== undefined) return found;
    this.strings.set(value, value);
    return value;
  }

  /**
   * The shared object for `signature` (which must identify its content), built and frozen on first use. Shared
   * objects are frozen so that no holder can change what the others see.
   */
  shared<T extends object>(signature: string, build: () => T): T {
    const found = this.objects.get(signature);
    if (found !== undefined) return found as T;
    const built = Object.freeze(build());
    this.objects.set(signature, built);
    return built;
  }

  /**
   * The shared, frozen copy of a label (or annotation) set equal to `labels`, with pooled values. Keyed by a hash
   * of the content rather than by the content as text, so that a set seen once (the labels of one workload) costs
   * the pool a number, not a copy of its text.
   */
  labels(
    labels: Readonly<Record<string, string>>,
  ): Readonly<Record<string, string>> {
    const keys = Object.keys(labels);
    // The sum of each pair's hash: the same whatever order the keys come in, so they need no sorting (sorting
    // them allocated 113 MB in fleet M's first sync, 5 % of all it allocated: sampling heap profile of the index
    // benchmark, 2026-12-07). Sets whose sums collide are told apart by their content.
    let hash = 0;
    for (const key of keys) {
      hash = (hash + fnv1a(textHash(key), labels[key])) | 0;
    }
    // Usually one set per hash; a list only when hashes collide.
    const found = this.labelSets.get(hash);
    const candidates = Array.isArray(found) ? found : found && [found];
    for (const candidate of candidates ?? []) {
      if (sameLabels(candidate, labels, keys)) return candidate;
    }
    const copy: Record<string, string> = {};
    for (const key of keys) copy[key] = this.intern(labels[key]);
    const shared = Object.freeze(copy);
    this.labelSets.set(hash, candidates ? [...candidates, shared] : shared);
    return shared;
  }

  /** How many values the pool holds now (a value may count twice while it moves between generations). */
  get size(): number {
    return this.strings.size + this.objects.size + this.labelSets.size;
  }
}

/** A 32-bit hash of a text (FNV-1a, signed), for tables keyed by text that keep no Map of their own. */
export function textHash(text: string): number {
  return fnv1a(0x811c9dc5 | 0, text);
}

/** FNV-1a (32 bits) of `text` continued from `hash`, with a separator so that `ab`+`c` differs from `a`+`bc`. */
function fnv1a(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= 0xff;
  // signed: a key above 2^31 - 1 is a heap number of its own in the pool's map, 0.47 MiB of them at fleet M
  return Math.imul(h, 0x01000193) | 0;
}

function sameLabels(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
  keysOfB: readonly string[],
): boolean {
  if (Object.keys(a).length !== keysOfB.length) return false;
  for (const key of keysOfB) {
    if (a[key] !== b[key] || !Object.prototype.hasOwnProperty.call(a, key))
      return false;
  }
  return true;
}

/** The pool used when a caller passes none. */
export const defaultValuePool = new ValuePool();
