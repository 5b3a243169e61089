import { ConfigReader } from '@backstage/config';
import { readCapacitySettings } from './readCapacitySettings';

const read = (capacity: object) =>
  readCapacitySettings(
    new ConfigReader({ fluxFleet: { capacity } }, 'app-config.yaml'),
  );

function problemOf(capacity: object): string {
  try {
    read(capacity);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('readCapacitySettings', () => {
  it('defaults: every 60 s, a 300 s window, pod proxy on, no Prometheus, 3 h of history', () => {
    expect(read({})).toEqual({
      enabled: true,
      scrapeIntervalMs: 60_000,
      windowMs: 300_000,
      historyPoints: 180,
      podProxy: {
        enabled: true,
        concurrency: 8,
        timeoutMs: 10_000,
        maxBodyBytes: 32 * 1024 * 1024,
        bytesPerMinute: 1024 * 1024,
      },
      prometheus: undefined,
    });
  });

  it.each([
    [
      { url: 'https://prom.example.com/', token: 't' },
      { url: 'https://prom.example.com', auth: { type: 'bearer', token: 't' } },
    ],
    [
      {
        url: 'http://prom:9090/prometheus',
        username: 'u',
        password: 'p',
        clusterLabel: 'k8s_cluster',
      },
      {
        url: 'http://prom:9090/prometheus',
        auth: { type: 'basic', username: 'u', password: 'p' },
        clusterLabel: 'k8s_cluster',
      },
    ],
    [
      { url: 'http://prom:9090' },
      { auth: { type: 'none' }, clusterLabel: 'cluster', timeoutMs: 10_000 },
    ],
  ])('reads prometheus %j', (prometheus, expected) => {
    expect(read({ prometheus }).prometheus).toMatchObject(expected);
  });

  it.each([
    [
      { scrapeIntervalSeconds: 0 },
      "'fluxFleet.capacity.scrapeIntervalSeconds': should be a positive number of seconds, got 0",
    ],
    [
      { scrapeIntervalSeconds: 2 },
      "'fluxFleet.capacity.scrapeIntervalSeconds': should be at least 5 s, got 2",
    ],
    [
      { windowSeconds: -1 },
      "'fluxFleet.capacity.windowSeconds': should be a positive number of seconds, got -1",
    ],
    [
      { historyHours: 100 },
      "'fluxFleet.capacity.historyHours': should be a number of hours from 0 to 48, got 100",
    ],
    [
      { podProxy: { concurrency: 0 } },
      "'fluxFleet.capacity.podProxy.concurrency': should be a whole number from 1 to 200, got 0",
    ],
    [
      { podProxy: { maxBodyBytes: 1.5 } },
      "'fluxFleet.capacity.podProxy.maxBodyBytes': should be a whole number from 1024 to 268435456, got 1.5",
    ],
    [
      { scrapeIntervalSeconds: 10, podProxy: { timeoutSeconds: 10 } },
      "'fluxFleet.capacity.podProxy.timeoutSeconds': should be shorter than scrapeIntervalSeconds (10 s), got 10",
    ],
    [
      { prometheus: { url: 'prom:9090' } },
      "'fluxFleet.capacity.prometheus.url': should be an http or https URL, got prom:",
    ],
    [
      { prometheus: { url: 'not a url' } },
      "'fluxFleet.capacity.prometheus.url': 'not a url' is not a URL",
    ],
    [
      { prometheus: { url: 'http://p/?x=1' } },
      "'fluxFleet.capacity.prometheus.url': should have no query or fragment",
    ],
    [
      { prometheus: { url: 'http://p', token: 't', username: 'u' } },
      "give either 'token' (bearer) or 'username' and 'password' (basic), not both",
    ],
    [
      { prometheus: { url: 'http://p', username: 'u' } },
      "basic authentication needs both 'username' and 'password'",
    ],
    [
      { prometheus: { url: 'http://p', clusterLabel: 'k8s-cluster' } },
      "'k8s-cluster' is not a Prometheus label name",
    ],
  ])('refuses %j', (capacity, message) => {
    expect(problemOf(capacity)).toContain(message);
  });
});
