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
class Generations<T> {
  private current = new Map<string, T>();
  private previous = new Map<string, T>();

  constructor(private readonly limit: number) {}

  get(key: string): T | undefined {
    const found = this.current.get(key);
    if (found !== undefined) return found;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: string, value: T) {
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

/** Shares equal strings and equal small objects between records. */
export class ValuePool {
  private readonly strings: Generations<string>;
  private readonly objects: Generations<object>;

  /**
   * @param limit - entries per generation and kind of value.
   * @param maxLength - strings longer than this are never pooled: they are rarely repeated and would pin memory.
   */
  constructor(limit = 20_000, private readonly maxLength = 2048) {
    this.strings = new Generations(limit);
    this.objects = new Generations(limit);
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

  /** How many values the pool holds now (a value may count twice while it moves between generations). */
  get size(): number {
    return this.strings.size + this.objects.size;
  }
}

/** The pool used when a caller passes none. */
export const defaultValuePool = new ValuePool();
