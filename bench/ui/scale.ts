/**
 * The scale part of the UI benchmark (issue 6): the control-plane views with 50 brokers, 1,000
 * partitions (RF 3), 20 groups and 500 consumers, while a producer writes. Measured in real
 * Chromium against the production build:
 *
 *  - frames per second on the brokers view and on the groups view (rAF callbacks over 5 s with
 *    the clock playing at 1x), target >= 50;
 *  - engine seconds per real second while those views run (how far the worker keeps up; the
 *    page stays smooth even when the engine is slower than real time);
 *  - how long the worker takes to build the large preset.
 *
 * `npx tsx bench/ui/scale.ts [--json] [--port N]` runs it alone; `runScaleBench` is the same for
 * bench/ui/run.ts. Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/browser';
import type { BenchResult } from '../harness';

const MEASURE_MS = 5000;

/** rAF callbacks per second over `ms` (the script is a string: no bundler helpers cross into the page). */
async function fps(page: Page, ms: number): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    let frames = 0;
    const start = performance.now();
    const tick = (t) => {
      frames++;
      if (t - start < ${ms}) requestAnimationFrame(tick);
      else resolve((frames * 1000) / (t - start));
    };
    requestAnimationFrame(tick);
  })`);
}

async function engineNow(page: Page): Promise<number> {
  return Number(await page.getByTestId('plane-clock').getAttribute('data-now'));
}

export async function runScaleBench(browser: Browser, url: string, report: (r: BenchResult) => void): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByTestId('app-ready').waitFor({ state: 'attached', timeout: 60_000 });
  await page.locator('[data-testid="plane"][data-ready="true"]').waitFor({ timeout: 60_000 });
  await page.getByTestId('plane-tab-scenarios').click();
  const t0 = Date.now();
  await page.getByTestId('preset-large').click();
  // The board says which preset it shows: poll it (the page is busy while 3,150 replicas appear).
  const plane = page.getByTestId('plane');
  for (let i = 0; i < 1200 && (await plane.getAttribute('data-preset')) !== 'large'; i++)
    await page.waitForTimeout(250);
  const brokers = Number(await plane.getAttribute('data-brokers'));
  if (brokers !== 50) throw new Error(`the large preset did not open (${brokers} brokers)`);
  report({ name: 'ui scale: build the large preset in the worker', value: (Date.now() - t0) / 1000, unit: 's' });
  await page.getByTestId('plane-tab-cluster').click();
  await page.waitForTimeout(1000);
  for (const tab of ['cluster', 'groups'] as const) {
    await page.getByTestId(`plane-tab-${tab}`).click();
    await page.waitForTimeout(1000);
    const before = await engineNow(page);
    const f = await fps(page, MEASURE_MS);
    const after = await engineNow(page);
    report({
      name: `ui scale: fps, ${tab === 'cluster' ? 'brokers' : 'groups'} view (50 brokers, 1,000 partitions, 500 consumers)`,
      value: f,
      unit: 'fps',
      target: '>= 50',
      met: f >= 50,
    });
    report({
      name: `ui scale: engine s per real s, ${tab === 'cluster' ? 'brokers' : 'groups'} view`,
      value: (after - before) / MEASURE_MS,
      unit: 'x',
    });
  }
  await context.close();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const portIdx = args.indexOf('--port');
  const port = portIdx >= 0 ? Number(args[portIdx + 1]) : 4197;
  const root = join(import.meta.dirname ?? '.', '..', '..');
  const browserChoice = findChromium();
  const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  server.stdout?.resume();
  const url = `http://127.0.0.1:${port}/`;
  const browser = await chromium.launch({ executablePath: browserChoice.executablePath, args: CHROMIUM_ARGS });
  try {
    for (let i = 0; i < 150; i++) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await runScaleBench(browser, url, (r) => {
      if (json) console.log(JSON.stringify(r));
      else {
        const target = r.target
          ? `  target ${r.target}${r.met === undefined ? '' : r.met ? ' (met)' : ' (NOT met)'}`
          : '';
        console.log(`${r.name.padEnd(80)} ${r.value.toFixed(1).padStart(8)} ${r.unit}${target}`);
      }
    });
  } finally {
    await browser.close();
    try {
      if (server.pid) process.kill(-server.pid);
    } catch {
      // already gone
    }
  }
}

if (process.argv[1]?.endsWith('scale.ts')) void main();
