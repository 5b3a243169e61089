import { defineConfig } from '@playwright/test';
import { join } from 'node:path';
import { stateDir } from './tests/fleetState';

/**
 * End-to-end tests of the running product (scripts/stack.sh up) in Debian's Chromium. Never downloads a browser.
 * PLAYWRIGHT_BASE_URL points at the backend that serves the built app; FLUX_FLEET_STATE at the stack's state
 * folder (kubeconfig, simulator log with its admin URL), where the run's results are written too.
 */
export default defineConfig({
  testDir: './tests',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // The tests share one fleet and some change it (a suspended Kustomization, a cluster taken down): one at a time.
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  outputDir: join(stateDir(), 'test', 'e2e-results'),
  use: {
    baseURL: process.env.PLAYWRIGHT_BASE_URL ?? 'http://localhost:7007',
    viewport: { width: 1280, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
});
