import type { Config } from '@backstage/config';
import type {
  CapacitySettings,
  PrometheusAuth,
  PrometheusSettings,
} from './FleetConfig';
import { FleetConfigError } from './FleetConfigError';
import { readSeconds } from './readSeconds';

const KEY = 'fluxFleet.capacity';

function readWhole(
  config: Config,
  key: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = config.getOptionalNumber(key) ?? fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new FleetConfigError(
      key,
      `should be a whole number from ${min} to ${max}, got ${value}`,
    );
  }
  return value;
}

function readPrometheus(config: Config): PrometheusSettings | undefined {
  const key = `${KEY}.prometheus`;
  if (!config.has(key)) return undefined;
  const raw = config.getString(`${key}.url`).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FleetConfigError(
      `${key}.url`,
      `'${raw}' is not a URL; give e.g. https://prometheus.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FleetConfigError(
      `${key}.url`,
      `should be an http or https URL, got ${url.protocol}`,
    );
  }
  if (url.search || url.hash) {
    throw new FleetConfigError(
      `${key}.url`,
      'should have no query or fragment: Flux Fleet adds /api/v1/query',
    );
  }
  const token = config.getOptionalString(`${key}.token`);
  const username = config.getOptionalString(`${key}.username`);
  const password = config.getOptionalString(`${key}.password`);
  let auth: PrometheusAuth = { type: 'none' };
  if (
    token !== undefined &&
    (username !== undefined || password !== undefined)
  ) {
    throw new FleetConfigError(
      key,
      "give either 'token' (bearer) or 'username' and 'password' (basic), not both",
    );
  }
  if (token !== undefined) {
    if (!token.trim()) throw new FleetConfigError(`${key}.token`, 'is empty');
    auth = { type: 'bearer', token };
  } else if (username !== undefined || password !== undefined) {
    if (!username || password === undefined) {
      throw new FleetConfigError(
        key,
        "basic authentication needs both 'username' and 'password'",
      );
    }
    auth = { type: 'basic', username, password };
  }
  const clusterLabel =
    config.getOptionalString(`${key}.clusterLabel`) ?? 'cluster';
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(clusterLabel)) {
    throw new FleetConfigError(
      `${key}.clusterLabel`,
      `'${clusterLabel}' is not a Prometheus label name`,
    );
  }
  return {
    url: url.toString().replace(/\/+$/, ''),
    auth,
    clusterLabel,
    timeoutMs: readSeconds(config, `${key}.timeoutSeconds`, 10),
  };
}

/** Reads and validates `fluxFleet.capacity`; throws {@link FleetConfigError} naming the key at fault. */
export function readCapacitySettings(config: Config): CapacitySettings {
  const scrapeIntervalMs = readSeconds(
    config,
    `${KEY}.scrapeIntervalSeconds`,
    60,
  );
  const windowMs = readSeconds(config, `${KEY}.windowSeconds`, 300);
  if (scrapeIntervalMs < 5000) {
    throw new FleetConfigError(
      `${KEY}.scrapeIntervalSeconds`,
      `should be at least 5 s, got ${scrapeIntervalMs / 1000}`,
    );
  }
  const historyHours = config.getOptionalNumber(`${KEY}.historyHours`) ?? 3;
  if (!Number.isFinite(historyHours) || historyHours < 0 || historyHours > 48) {
    throw new FleetConfigError(
      `${KEY}.historyHours`,
      `should be a number of hours from 0 to 48, got ${historyHours}`,
    );
  }
  const podProxy = {
    enabled: config.getOptionalBoolean(`${KEY}.podProxy.enabled`) ?? true,
    concurrency: readWhole(config, `${KEY}.podProxy.concurrency`, 8, 1, 200),
    timeoutMs: readSeconds(config, `${KEY}.podProxy.timeoutSeconds`, 10),
    maxBodyBytes: readWhole(
      config,
      `${KEY}.podProxy.maxBodyBytes`,
      // a Flux controller exports a 13-line histogram per object it reconciles (about 1.6 KB): 32 MiB is about
      // 20,000 objects; only the lines capacity reads are held, so the cap bounds the transfer, not the memory
      32 * 1024 * 1024,
      1024,
      256 * 1024 * 1024,
    ),
    bytesPerMinute: readWhole(
      config,
      `${KEY}.podProxy.bytesPerMinute`,
      // about 660 objects' histograms (1.58 KB each). At fleet L (1,193 controller pods answering 1.70 GB a
      // minute, median 0.89 MB, largest 7.9 MB; measured 2026-12-05): 659 scraped every round, the rest 2 to 5
      // rounds apart, 0.69 GB a minute. With 4 MiB: 1.38 GB; 2 MiB: 1.03 GB. Fleet M's largest (2,496 objects,
      // 3.9 MB) every fourth round
      1024 * 1024,
      1024,
      1024 * 1024 * 1024,
    ),
  };
  if (podProxy.timeoutMs >= scrapeIntervalMs) {
    throw new FleetConfigError(
      `${KEY}.podProxy.timeoutSeconds`,
      `should be shorter than scrapeIntervalSeconds (${
        scrapeIntervalMs / 1000
      } s), got ${podProxy.timeoutMs / 1000}`,
    );
  }
  return {
    enabled: config.getOptionalBoolean(`${KEY}.enabled`) ?? true,
    scrapeIntervalMs,
    windowMs,
    historyPoints: Math.round((historyHours * 3600_000) / scrapeIntervalMs),
    podProxy,
    prometheus: readPrometheus(config),
  };
}
