/** Metrics faults one pod can be given. */
export type PodMetricsFault =
  | 'garbage'
  | 'huge'
  | 'hang'
  | 'slow'
  | 'nan'
  | 'missing'
  | 'reset';

const POD_METRICS_FAULTS: readonly PodMetricsFault[] = [
  'garbage',
  'huge',
  'hang',
  'slow',
  'nan',
  'missing',
  'reset',
];

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
  /** `get pods/proxy` is forbidden to every user but the admin (a read-only identity without metrics access). */
  podsProxyForbidden: boolean;
  /**
   * Metrics faults per pod name: `garbage`, `huge` (64 MiB), `hang`, `slow` (after `metricsDelayMs`), `nan`
   * (NaN and ±Inf values), `missing` (some families left out), `reset` (counters restart, once). An update merges
   * into the current map; `null` clears a pod's fault.
   */
  podMetrics: Record<string, PodMetricsFault>;
  /** How long a `slow` pod takes to answer a scrape, in ms. */
  metricsDelayMs: number;
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
  podsProxyForbidden: false,
  podMetrics: {},
  metricsDelayMs: 10_000,
};

/** Checks a partial fault update, with a message naming what is wrong. */
/** A change of faults: the fields to set (`podMetrics` merges, `null` clears a pod's fault). */
export type FaultChange = Partial<Omit<Faults, 'podMetrics'>> & {
  podMetrics?: Record<string, PodMetricsFault | null>;
};

export function validateFaults(input: unknown): FaultChange {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error('faults must be a JSON object, e.g. {"down": true}');
  }
  const out: FaultChange = {};
  for (const [key, value] of Object.entries(input)) {
    switch (key) {
      case 'down':
      case 'hang':
      case 'expireWatches':
      case 'malformed':
      case 'podsProxyForbidden':
        if (typeof value !== 'boolean')
          throw new Error(`fault ${key} must be true or false`);
        out[key] = value;
        break;
      case 'podMetrics':
        out.podMetrics = validatePodMetrics(value);
        break;
      case 'latencyMs':
      case 'retryAfterSeconds':
      case 'metricsDelayMs':
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

function validatePodMetrics(
  value: unknown,
): Record<string, PodMetricsFault | null> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(
      'fault podMetrics must be an object of pod name to fault, e.g. {"kustomize-controller-5f7d8c9b6a-x2k4p": "garbage"}',
    );
  }
  const out: Record<string, PodMetricsFault | null> = {};
  for (const [pod, fault] of Object.entries(value)) {
    if (fault !== null && !POD_METRICS_FAULTS.includes(fault as any)) {
      throw new Error(
        `podMetrics fault of pod ${pod} must be one of ${POD_METRICS_FAULTS.join(
          ', ',
        )} or null, got ${JSON.stringify(fault)}`,
      );
    }
    out[pod] = fault as PodMetricsFault | null;
  }
  return out;
}

/** Parses a `--fault cluster:name[=value]` flag, e.g. `prod-eu-west-1:down`, `prod-eu-west-1:latencyMs=200`. */
export function parseFaultFlag(text: string): {
  cluster: string;
  faults: FaultChange;
} {
  const m = /^([^:]+):([A-Za-z]+)(?:=(.+))?$/.exec(text);
  if (!m) {
    throw new Error(
      `--fault ${text}: expected <cluster>:<fault>[=<value>], e.g. prod-eu-west-1:down`,
    );
  }
  const [, cluster, name, raw] = m;
  if (name === 'podMetrics') {
    // `podMetrics=<pod>=<fault>`
    const [pod, fault] = (raw ?? '').split('=');
    return {
      cluster,
      faults: validateFaults({ podMetrics: { [pod]: fault } }),
    };
  }
  let value: unknown = true;
  if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (raw !== undefined) value = Number(raw);
  return { cluster, faults: validateFaults({ [name]: value }) };
}
