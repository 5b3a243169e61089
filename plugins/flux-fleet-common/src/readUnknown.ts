/**
 * Reading values of unknown shape (objects as they arrive from a cluster) without trusting them: each reader
 * returns undefined for a missing value and says so when a value has the wrong type, so that a malformed object
 * gives a clear message instead of a crash.
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a value's type for messages: `string "x"`, `number 3`, `array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `text ${JSON.stringify(
        value.length > 40 ? `${value.slice(0, 40)}…` : value,
      )}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/**
 * Reads fields of one object and collects what had the wrong type. `path` names the object in messages
 * (`spec`, `status.artifact`).
 */
export class FieldReader {
  constructor(
    readonly value: JsonObject | undefined,
    /** Where the object is, for messages: `spec`, `status.artifact`; empty for the root. */
    readonly path: string,
    private readonly problems: string[],
  ) {}

  /** The path of one of its fields, for messages. */
  pathOf(field: string): string {
    return this.path ? `${this.path}.${field}` : field;
  }

  private wrong(field: string, expected: string, actual: unknown) {
    this.problems.push(
      `${this.pathOf(field)} should be ${expected} but is ${describeValue(
        actual,
      )}; ignored`,
    );
  }

  has(field: string): boolean {
    return this.value !== undefined && this.value[field] !== undefined;
  }

  raw(field: string): unknown {
    return this.value?.[field];
  }

  string(field: string): string | undefined {
    const v = this.value?.[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      this.wrong(field, 'text', v);
      return undefined;
    }
    return v;
  }

  /** A non-negative integer, as Kubernetes generations are. */
  integer(field: string): number | undefined {
    const v = this.value?.[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      this.wrong(field, 'a whole number', v);
      return undefined;
    }
    return v;
  }

  boolean(field: string): boolean | undefined {
    const v = this.value?.[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.wrong(field, 'true or false', v);
      return undefined;
    }
    return v;
  }

  object(field: string): FieldReader {
    const v = this.value?.[field];
    if (v !== undefined && v !== null && !isJsonObject(v)) {
      this.wrong(field, 'an object', v);
    }
    return new FieldReader(
      isJsonObject(v) ? v : undefined,
      this.pathOf(field),
      this.problems,
    );
  }

  /** A list; undefined when absent, with a problem when it is not a list. */
  list(field: string): unknown[] | undefined {
    const v = this.value?.[field];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) {
      this.wrong(field, 'a list', v);
      return undefined;
    }
    return v;
  }

  /** A map of text to text (labels, annotations); entries that are not text are dropped with a problem. */
  stringMap(field: string): Record<string, string> | undefined {
    const v = this.value?.[field];
    if (v === undefined || v === null) return undefined;
    if (!isJsonObject(v)) {
      this.wrong(field, 'a map of text', v);
      return undefined;
    }
    let result: Record<string, string> | undefined;
    for (const key of Object.keys(v)) {
      if (typeof v[key] !== 'string') {
        this.wrong(`${field}[${JSON.stringify(key)}]`, 'text', v[key]);
        result ??= copyStrings(v);
        delete result[key];
      }
    }
    return result ?? (v as Record<string, string>);
  }

  /** A reader for a nested path, for messages. */
  child(value: unknown, name: string): FieldReader {
    return new FieldReader(
      isJsonObject(value) ? value : undefined,
      `${this.path}${name}`,
      this.problems,
    );
  }
}

function copyStrings(v: JsonObject): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of Object.keys(v)) {
    if (typeof v[key] === 'string') result[key] = v[key] as string;
  }
  return result;
}
