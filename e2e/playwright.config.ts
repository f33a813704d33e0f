import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser journeys in Debian's Chromium against the real server, started here on port 3100 (or PORTAL_E2E_PORT) with a fresh
 * embedded database in a temp directory (first start: created, migrated and seeded). `npm run test:e2e`
 * builds first; the start script rebuilds anything still out of date.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env['PORTAL_E2E_PORT'] ?? 3100);
export const baseURL = `http://localhost:${port}`;

// The config is read by the runner and by every worker: one data directory, made once, shared by name.
process.env['PORTAL_E2E_DATA_DIR'] ??= mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
const dataDir = process.env['PORTAL_E2E_DATA_DIR'];

const chromium = {
  browserName: 'chromium' as const,
  launchOptions: {
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(repoRoot, 'test-results'),
  workers: 2,
  fullyParallel: true,
  forbidOnly: Boolean(process.env['CI']),
  retries: process.env['CI'] ? 1 : 0,
  // A journey is many screens, each scanned by axe: 20-35 s on a two-core machine.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  globalTeardown: './support/global-teardown.ts',
  use: {
    baseURL,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    // A trace records a screencast and DOM snapshots as the journey runs: on two cores that doubled the
    // journeys' CPU (decision 018). It is recorded when a failed journey is retried (CI retries once), and
    // on demand with `--trace on`.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'desktop',
      // The phone journey is the mobile project's own; the site-wide switches run after every other.
      testIgnore: ['phone.spec.ts', 'staff-content.spec.ts'],
      use: { ...chromium, viewport: { width: 1280, height: 800 } },
    },
    // Many customers use a phone: the shell is also checked at a small touch screen.
    {
      name: 'mobile',
      testMatch: ['shell.spec.ts', 'phone.spec.ts'],
      use: { ...chromium, viewport: devices['Pixel 7'].viewport, isMobile: true, hasTouch: true },
    },
    // Issue 42's journey changes what every customer sees (the service alert, maintenance mode): it runs
    // once the other journeys are done, so none of them meets the maintenance page.
    {
      name: 'site-wide',
      testMatch: 'staff-content.spec.ts',
      dependencies: ['desktop', 'mobile'],
      use: { ...chromium, viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: repoRoot,
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // The journeys run on the embedded database and its counters even when CI exports DATABASE_URL and
      // REDIS_URL for the data-layer tests (Redis would keep one run's rate limits for the next).
      DATABASE_URL: '',
      REDIS_URL: '',
      // Each journey's browser names its own client address (support/fixtures.ts), as if behind one proxy.
      TRUST_PROXY: '1',
    },
  },
});
