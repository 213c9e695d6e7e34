// Browser journeys against the built Worker under `wrangler dev` (fresh local D1/KV state), in Debian's Chromium,
// at desktop (1440 px) and mobile (390 px) widths.
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8788);
// E2E_BASE_URL points the journeys at a server that is already running (e.g. `npm run preview`); otherwise a fresh one
// is started from dist/.
const EXISTING = process.env.E2E_BASE_URL;
// Journeys that run a bootstrap command against the server's local state need that state: against an existing server
// they run only when E2E_STATE_DIR names its state directory (tests tagged @server-state).
const NO_STATE = Boolean(EXISTING) && !process.env.E2E_STATE_DIR;
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.tmp/e2e-results.json' }]],
  use: {
    baseURL: EXISTING ?? `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Phone-only checks (the 390 px width sweep, tests tagged @phone) run in the mobile project alone.
    {
      name: 'desktop',
      use: { viewport: { width: 1440, height: 900 } },
      testIgnore: /no-overflow\.spec\.ts/,
      grepInvert: NO_STATE ? /@phone|@server-state/ : /@phone/,
    },
    {
      name: 'mobile',
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
      ...(NO_STATE ? { grepInvert: /@server-state/ } : {}),
    },
  ],
  ...(EXISTING
    ? {}
    : {
        webServer: {
          command: `node scripts/e2e-server.mjs --port=${PORT}`,
          url: `http://127.0.0.1:${PORT}/builds/latest.json`,
          reuseExistingServer: false,
          timeout: 180_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
      }),
});
