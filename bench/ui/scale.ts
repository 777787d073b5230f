/**
 * The scale part of the UI benchmark (issue 6): the board views with 50 brokers, 1,000
 * partitions (RF 3), 20 groups and 500 consumers, while a producer writes. Measured in real
 * Chromium against the production build:
 *
 *  - frames per second on the brokers view and on the groups view (rAF callbacks over 5 s with
 *    the clock playing at 1x), target >= 50;
 *  - engine seconds per real second while those views run (how far the worker keeps up; the
 *    page stays smooth even when the engine is slower than real time);
 *  - main-thread busy time per second during each sample, from Chrome's own counters (CDP
 *    Performance.getMetrics, thread ticks): TaskDuration, ScriptDuration, RecalcStyleDuration,
 *    LayoutDuration. Not targets, but far steadier than fps on a shared machine: fps falls when
 *    other processes take the cores, busy ms per second barely moves;
 *  - how long the worker takes to build the large preset.
 *
 * `npx tsx bench/ui/scale.ts [--json] [--port N] [--dist DIR] [--url URL] [--rounds N]` runs it
 * alone (--url: an already running server, nothing is spawned; --dist: serve another build than
 * dist/; --rounds: fresh page per round, medians reported). From bench/ui/run.ts:
 *
 *   await runScaleBench(browser, 'http://127.0.0.1:4181/', report, { rounds: 1 });
 *
 * with a Playwright Browser already launched and a preview server already serving the build.
 * Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Browser, type CDPSession, chromium, type Page } from '@playwright/test';
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
  return Number(await page.getByTestId('board-clock').getAttribute('data-now'));
}

const METRICS = [
  ['TaskDuration', 'main-thread busy'],
  ['ScriptDuration', 'script'],
  ['RecalcStyleDuration', 'style recalc'],
  ['LayoutDuration', 'layout'],
] as const;

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  const out: Record<string, number> = {};
  for (const m of list) out[m.name] = m.value;
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

type View = 'cluster' | 'groups';
interface Sample {
  fps: number;
  engineRate: number;
  busy: Record<string, number>;
}

/** Opens the large preset in a fresh page and samples both views once. */
async function oneRound(browser: Browser, url: string): Promise<{ buildS: number; views: Record<View, Sample> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByTestId('app-ready').waitFor({ state: 'attached', timeout: 60_000 });
    await page.locator('[data-testid="board"][data-ready="true"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('board-tab-scenarios').click();
    const t0 = Date.now();
    await page.getByTestId('preset-large').click();
    // The board says which preset it shows: poll it (the page is busy while 3,150 replicas appear).
    const board = page.getByTestId('board');
    for (let i = 0; i < 1200 && (await board.getAttribute('data-preset')) !== 'large'; i++)
      await page.waitForTimeout(250);
    const brokers = Number(await board.getAttribute('data-brokers'));
    if (brokers !== 50) throw new Error(`the large preset did not open (${brokers} brokers)`);
    const buildS = (Date.now() - t0) / 1000;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await page.getByTestId('board-tab-cluster').click();
    await page.waitForTimeout(1000);
    const views = {} as Record<View, Sample>;
    for (const tab of ['cluster', 'groups'] as const) {
      await page.getByTestId(`board-tab-${tab}`).click();
      // Looking at the view: the board scrolled into the viewport, as a person reading it has it.
      await board.evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(1500);
      const before = await engineNow(page);
      const m0 = await metrics(cdp);
      const t = Date.now();
      const f = await fps(page, MEASURE_MS);
      const seconds = (Date.now() - t) / 1000;
      const m1 = await metrics(cdp);
      const after = await engineNow(page);
      const busy: Record<string, number> = {};
      for (const [m] of METRICS) busy[m] = (((m1[m] ?? 0) - (m0[m] ?? 0)) * 1000) / seconds;
      views[tab] = { fps: f, engineRate: (after - before) / MEASURE_MS, busy };
    }
    return { buildS, views };
  } finally {
    await context.close();
  }
}

/**
 * The scale benchmark against a server already serving the production build at `url`, in a
 * browser already launched; reports through `report`. `rounds` fresh pages, medians reported.
 */
export async function runScaleBench(
  browser: Browser,
  url: string,
  report: (r: BenchResult) => void,
  options: { rounds?: number } = {},
): Promise<void> {
  const rounds = Math.max(1, options.rounds ?? 1);
  const all: Awaited<ReturnType<typeof oneRound>>[] = [];
  for (let i = 0; i < rounds; i++) all.push(await oneRound(browser, url));
  report({
    name: 'ui scale: build the large preset in the worker',
    value: median(all.map((r) => r.buildS)),
    unit: 's',
  });
  for (const tab of ['cluster', 'groups'] as const) {
    const label = tab === 'cluster' ? 'brokers' : 'groups';
    const f = median(all.map((r) => r.views[tab].fps));
    report({
      name: `ui scale: fps, ${label} view (50 brokers, 1,000 partitions, 500 consumers)`,
      value: f,
      unit: 'fps',
      target: '>= 50',
      met: f >= 50,
    });
    report({
      name: `ui scale: engine s per real s, ${label} view`,
      value: median(all.map((r) => r.views[tab].engineRate)),
      unit: 'x',
    });
    for (const [m, what] of METRICS) {
      report({
        name: `ui scale: ${what}, ${label} view`,
        value: median(all.map((r) => r.views[tab].busy[m] ?? 0)),
        unit: 'ms/s',
      });
    }
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const port = Number(opt('--port') ?? 4197);
  const rounds = Number(opt('--rounds') ?? 1);
  const root = join(import.meta.dirname ?? '.', '..', '..');
  const dist = opt('--dist') ?? join(root, 'dist');
  const browserChoice = findChromium();
  const given = opt('--url');
  const server = given
    ? null
    : spawn(
        'npx',
        ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1', '--outDir', dist],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
          detached: true,
        },
      );
  server?.stdout?.resume();
  const url = given ?? `http://127.0.0.1:${port}/`;
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
    await runScaleBench(
      browser,
      url,
      (r) => {
        if (json) console.log(JSON.stringify(r));
        else {
          const target = r.target
            ? `  target ${r.target}${r.met === undefined ? '' : r.met ? ' (met)' : ' (NOT met)'}`
            : '';
          console.log(`${r.name.padEnd(80)} ${r.value.toFixed(1).padStart(8)} ${r.unit}${target}`);
        }
      },
      { rounds },
    );
  } finally {
    await browser.close();
    try {
      if (server?.pid) process.kill(-server.pid);
    } catch {
      // already gone
    }
  }
}

if (process.argv[1]?.endsWith('scale.ts')) void main();
