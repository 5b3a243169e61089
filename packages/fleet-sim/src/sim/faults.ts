/** Faults that can be switched on per simulated cluster at run time. */
export interface Faults {
  /** Connection refused: the listener is closed, and reopened on the same port when cleared. */
  down: boolean;
  /** Milliseconds added to every response. */
  latencyMs: number;
  /** Connections are accepted but never answered. */
  hang: boolean;
  /** Share of requests (0–1) answered 429 with Retry-After. */
  throttleRatio: number;
  /** The Retry-After of throttled answers, in seconds. */
  retryAfterSeconds: number;
  /** Every open and new watch ends with 410 Gone. */
  expireWatches: boolean;
  /** Malformed Flux objects are added (removed when cleared). */
  malformed: boolean;
}

/** No faults. */
export const NO_FAULTS: Faults = {
  down: false,
  latencyMs: 0,
  hang: false,
  throttleRatio: 0,
  retryAfterSeconds: 1,
  expireWatches: false,
  malformed: false,
};

/** Checks a partial fault update, with a message naming what is wrong. */
export function validateFaults(input: unknown): Partial<Faults> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error('faults must be a JSON object, e.g. {"down": true}');
  }
  const out: Partial<Faults> = {};
  for (const [key, value] of Object.entries(input)) {
    switch (key) {
      case 'down':
      case 'hang':
      case 'expireWatches':
      case 'malformed':
        if (typeof value !== 'boolean')
          throw new Error(`fault ${key} must be true or false`);
        out[key] = value;
        break;
      case 'latencyMs':
      case 'retryAfterSeconds':
        if (typeof value !== 'number' || !(value >= 0)) {
          throw new Error(`fault ${key} must be a number >= 0`);
        }
        out[key] = value;
        break;
      case 'throttleRatio':
        if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
          throw new Error(
            'fault throttleRatio must be a number between 0 and 1',
          );
        }
        out.throttleRatio = value;
        break;
      default:
        throw new Error(
          `unknown fault ${key}; known: ${Object.keys(NO_FAULTS).join(', ')}`,
        );
    }
  }
  return out;
}

/** Parses a `--fault cluster:name[=value]` flag, e.g. `prod-eu-west-1:down`, `prod-eu-west-1:latencyMs=200`. */
export function parseFaultFlag(text: string): {
  cluster: string;
  faults: Partial<Faults>;
} {
  const m = /^([^:]+):([A-Za-z]+)(?:=(.+))?$/.exec(text);
  if (!m) {
    throw new Error(
      `--fault ${text}: expected <cluster>:<fault>[=<value>], e.g. prod-eu-west-1:down`,
    );
  }
  const [, cluster, name, raw] = m;
  let value: unknown = true;
  if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (raw !== undefined) value = Number(raw);
  return { cluster, faults: validateFaults({ [name]: value }) };
}
