/** Calls to the running backend with the benchmark's static token, timed. */
import { msSince } from '../stats';

/** The answer of a timed call. */
export interface TimedAnswer<T = unknown> {
  status: number;
  ms: number;
  body?: T;
  /** Set when no answer came before the timeout. */
  timedOut?: boolean;
}

/** A client of one backend. */
export class BackendClient {
  constructor(
    readonly baseUrl: string,
    /** The static token of `backend.auth.externalAccess`. */
    readonly token: string,
  ) {}

  /** Sends a request and reads the whole answer, timing both; a timeout gives `timedOut` instead of throwing. */
  async call<T = unknown>(
    path: string,
    options: {
      method?: string;
      body?: unknown;
      timeoutMs?: number;
      token?: string;
    } = {},
  ): Promise<TimedAnswer<T>> {
    const started = process.hrtime.bigint();
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
        headers: {
          Authorization: `Bearer ${options.token ?? this.token}`,
          ...(options.body === undefined
            ? {}
            : { 'Content-Type': 'application/json' }),
        },
        body:
          options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
      const text = await response.text();
      const ms = msSince(started);
      let body: T | undefined;
      try {
        body = JSON.parse(text) as T;
      } catch {
        body = undefined;
      }
      return { status: response.status, ms, body };
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        return { status: 0, ms: msSince(started), timedOut: true };
      }
      // undici says only "fetch failed"; the cause says why (ECONNRESET, "other side closed", ECONNREFUSED)
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new Error(
        `${options.method ?? 'GET'} ${this.baseUrl}${path} failed: ${
          (error as Error).message
        }${cause ? ` (${cause})` : ''}`,
      );
    }
  }

  /** GET that must answer 200: the parsed body. */
  async get<T>(path: string): Promise<T> {
    const answer = await this.call<T>(path);
    if (answer.status !== 200 || answer.body === undefined) {
      throw new Error(
        `GET ${path} answered ${answer.status}: ${JSON.stringify(
          answer.body,
        )?.slice(0, 300)}`,
      );
    }
    return answer.body;
  }
}
