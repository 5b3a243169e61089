import http from 'node:http';
import type { PrometheusSettings } from '../config/FleetConfig';
import { httpGetLimited } from './httpGetLimited';

/** One series of an instant vector: its labels and its value (NaN and ±Inf as Prometheus writes them). */
export interface VectorSample {
  labels: Record<string, string>;
  value: number;
}

/** Prometheus answers larger than this are refused (a capacity query answers a few series per controller). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** A failed query; the message names the server and says what went wrong, never the credentials. */
export class PrometheusError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrometheusError';
  }
}

function sampleValue(text: unknown): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return typeof text === 'string' ? Number(text) : NaN;
}

/** Instant queries against a Prometheus server's HTTP API (`/api/v1/query`) with the configured auth. */
export class PrometheusClient {
  private readonly headers: Record<string, string> = {
    Accept: 'application/json',
  };

  constructor(private readonly settings: PrometheusSettings) {
    const { auth } = settings;
    if (auth.type === 'bearer')
      this.headers.Authorization = `Bearer ${auth.token}`;
    if (auth.type === 'basic') {
      this.headers.Authorization = `Basic ${Buffer.from(
        `${auth.username}:${auth.password}`,
      ).toString('base64')}`;
    }
  }

  /** Evaluates `query` at `time` (ms since the epoch); throws {@link PrometheusError}. */
  async query(
    query: string,
    time: number,
    signal?: AbortSignal,
  ): Promise<VectorSample[]> {
    const url = new URL(`${this.settings.url}/api/v1/query`);
    url.searchParams.set('query', query);
    url.searchParams.set('time', (time / 1000).toFixed(3));
    const where = `Prometheus at ${this.settings.url}`;
    let answer;
    try {
      answer = await httpGetLimited(url, {
        timeoutMs: this.settings.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        headers: this.headers,
        signal,
      });
    } catch (error) {
      throw new PrometheusError(`${where} ${(error as Error).message}`);
    }
    let body: any;
    try {
      body = JSON.parse(answer.body);
    } catch {
      const start = answer.body.trim().slice(0, 60);
      throw new PrometheusError(
        `${where} answered ${answer.status} with text that is not JSON${
          start ? ` (it starts '${start}')` : ''
        }: is the URL the Prometheus server's?`,
      );
    }
    if (answer.status === 401 || answer.status === 403) {
      throw new PrometheusError(
        `${where} answered ${answer.status} ${
          http.STATUS_CODES[answer.status]
        }: check fluxFleet.capacity.prometheus.token or username and password`,
      );
    }
    if (body?.status !== 'success') {
      const why = [body?.errorType, body?.error]
        .filter(x => typeof x === 'string')
        .join(': ');
      throw new PrometheusError(
        `${where} answered ${answer.status}${
          why ? ` (${why.slice(0, 300)})` : ''
        } to ${query.slice(0, 200)}`,
      );
    }
    if (
      body.data?.resultType !== 'vector' ||
      !Array.isArray(body.data.result)
    ) {
      throw new PrometheusError(
        `${where} answered a ${
          body.data?.resultType ?? 'shapeless'
        } result, not a vector, to ${query.slice(0, 200)}`,
      );
    }
    return (body.data.result as any[]).map(r => ({
      labels: typeof r?.metric === 'object' && r.metric ? r.metric : {},
      value: sampleValue(Array.isArray(r?.value) ? r.value[1] : undefined),
    }));
  }
}
