import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/browser';

const browser = findChromium();
const port = Number(process.env.GLASSBOX_PORT ?? 4173);

// Specs run against the production build (vite build + vite preview), in Chromium only.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // Tests, not files, are shared between the workers: lessons.spec alone is 7 minutes of tests and
  // kept one worker busy to the end. Every test opens its own browser context (its own IndexedDB);
  // a file that shares a process between its tests says so (nodeHost.spec).
  fullyParallel: true,
  // Two workers on CI's two cores: most of a spec's time is the engine's clock running at 1x in the
  // page, not CPU, so two pages side by side roughly halve the suite (17.6 min for 132 specs under
  // load, against about 25 min with one).
  workers: 2,
  // CI runs on a 2-core machine where a busy page can trail Playwright's input: one retry, and the
  // report counts a test that passed only on it as flaky (the closing line names them).
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI_JSON ? [['list'], ['json', { outputFile: 'reports/playwright.json' }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: browser.executablePath,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
