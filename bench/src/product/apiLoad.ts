/**
 * The API under load: autocannon in this process against the backend's port, `connections` requests in flight,
 * paths rotating over a set (different entities, different filters), for a fixed time. Latencies come from every
 * response (autocannon's histogram rounds to whole milliseconds, too coarse for answers from memory).
 */
import autocannon from 'autocannon';
import { distribution, round2, type Distribution } from '../stats';

/** One route's figures under load. */
export interface RouteLoad {
  name: string;
  /** One of the paths, as an example. */
  example: string;
  paths: number;
  latencyMs: Distribution;
  requestsPerSecond: number;
  /** Answers other than 2xx, and connection errors or timeouts. */
  non2xx: number;
  errors: number;
}

/** Loads one route for `seconds` and returns its figures. */
export async function loadRoute(options: {
  name: string;
  baseUrl: string;
  token: string;
  paths: string[];
  seconds: number;
  connections: number;
}): Promise<RouteLoad> {
  if (options.paths.length === 0)
    throw new Error(`no paths to load for ${options.name}`);
  let next = 0;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.connections,
        duration: options.seconds,
        headers: { authorization: `Bearer ${options.token}` },
        requests: [
          {
            method: 'GET',
            setupRequest: request => ({
              ...request,
              path: options.paths[next++ % options.paths.length],
            }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
  return {
    name: options.name,
    example: options.paths[0],
    paths: options.paths.length,
    latencyMs: distribution(latencies),
    requestsPerSecond: round2(latencies.length / result.duration),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
