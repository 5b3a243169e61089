import type { Config } from '@backstage/config';
import { FleetConfigError } from './FleetConfigError';

/** A positive number of seconds (fractions allowed), in milliseconds. */
export function readSeconds(
  config: Config,
  key: string,
  defaultSeconds: number,
): number {
  const value = config.getOptionalNumber(key) ?? defaultSeconds;
  if (!Number.isFinite(value) || value <= 0) {
    throw new FleetConfigError(
      key,
      `should be a positive number of seconds, got ${value}`,
    );
  }
  return Math.round(value * 1000);
}
