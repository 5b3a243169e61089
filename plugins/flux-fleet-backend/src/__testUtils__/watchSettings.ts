import type { WatchSettings } from '../config/FleetConfig';

/** Watch settings for informer tests: small pages, fast retries, no events; `overrides` set what a test is about. */
export function testWatchSettings(overrides: Partial<WatchSettings> = {}): WatchSettings {
  return {
    pageSize: 50,
    concurrentLists: 4,
    listWorker: true,
    watchTimeoutMs: 60_000,
    bookmarks: true,
    requestTimeoutMs: 2_000,
    idleTimeoutMs: 5_000,
    probeIntervalMs: 10_000,
    unreachableAfterMs: 1_000,
    backoffInitialMs: 100,
    backoffMaxMs: 1_000,
    discoveryIntervalMs: 600_000,
    events: false,
    eventsPerObject: 5,
    ...overrides,
  };
}
