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
  /** How many times the current generation became the previous one: a key in `current` stays there until the next. */
  turns = 0;

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
      this.turns++;
    }
    this.current.set(key, value);
  }

  get size() {
    return this.current.size + this.previous.size;
  }
}

type LabelSet = Readonly<Record<string, string>>;

/** How many fields may remember their last pooled value ({@link ValuePool.internAt}). */
export const RECENT_SLOTS = 16;

/** Shares equal strings and equal small objects between records. */
export class ValuePool {
  private readonly strings: Generations<string, string>;
  private readonly objects: Generations<string, object>;
  /** Label sets by a hash of their content; a bucket holds the sets whose hashes collide. */
  private readonly labelSets: Generations<number, LabelSet | LabelSet[]>;
  /** By slot of {@link internAt}: the value last pooled there, and the turn of `strings` it was in `current` at. */
  private readonly recent: string[] = new Array<string>(RECENT_SLOTS).fill('');
  private readonly recentTurns: number[] = new Array<number>(RECENT_SLOTS).fill(-1);

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
   * {@link intern} for a field pooled object after object (a namespace, an API version, a condition's reason), whose
   * value mostly equals the previous object's: lists come namespace by namespace and kind by kind. `slot` (below
   * {@link RECENT_SLOTS}, one per such field of the caller) remembers the value last pooled for the field; comparing
   * with it spares the lookup in the pool's maps, which hashes the new string and reads a cold one (at fleet M, 0.3 µs
   * a value replayed alone, 0.8 µs in the sync's CPU profile; with these fields, 58 % of the values pooled there, the
   * normaliser took 973 -> 917 ms, median of 8 alternating runs). The pool ends the same as through {@link intern}: a remembered value is
   * used only while it is in the current generation, where a lookup would have found it and moved nothing.
   */
  internAt(slot: number, value: string): string {
    if (value === this.recent[slot] && this.recentTurns[slot] === this.strings.turns) {
      return this.recent[slot];
    }
    const pooled = this.intern(value);
    if (pooled.length <= this.maxLength) {
      this.recent[slot] = pooled;
      this.recentTurns[slot] = this.strings.turns;
    }
    return pooled;
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
