/**
 * `npm run bench:ui`: the browser-side benchmark, in real Chromium against the production build.
 *
 *  - initial JS (gzip): the scripts index.html loads before anything renders (entry + preloads),
 *    gzipped at level 9; the engine worker's chunk is reported apart (it loads in parallel).
 *    Target <= 250 KB.
 *  - time to first meaningful render: navigation start to the first record cell of the demo
 *    cluster in the DOM (the cluster is open and drawn), median of 5 cold loads (fresh profile,
 *    empty IndexedDB) on the preview server.
 *  - frames per second while a producer sends 5,000 records/s: rAF callbacks counted for 5 s of
 *    a paced bulk produce, after 1 s of warm-up. Target >= 50.
 *
 *  - main-thread time during that sample (not targets, but steadier than fps on a shared machine:
 *    fps falls when other processes take the cores, busy time per second barely moves): Chrome's
 *    own counters (CDP Performance.getMetrics) TaskDuration, ScriptDuration, RecalcStyleDuration
 *    and LayoutDuration, as milliseconds per second of the sample, and the busy time per frame
 *    drawn (more frames drawn is more work, so per second alone can hide a gain).
 *  - time travel (issue 12, bench/ui/travel.ts): a seek anywhere in a 10-minute demo run, from the
 *    scrubber's input event to the moment shown, median and worst of 20. Target <= 200 ms.
 *  - the scale preset (issue 6, bench/ui/scale.ts): 50 brokers, 1,000 partitions, 20 groups and
 *    500 consumers while producing; fps of the brokers and groups views, target >= 50.
 *
 * Options: --json prints one JSON object per line ({name, value, unit, target, met}), like
 * `npm run bench -- --json`. --port N picks the preview port (default 4181; 4190 is on the Fetch
 * spec's bad-port list, so Node's fetch refuses it). --dist DIR serves another build than dist/
 * (e.g. `npx vite build --outDir /tmp/mine`). --rounds N repeats the produce sample N times (fresh
 * page each) and reports medians (the scale preset too). --no-load skips the first-render
 * measurement; --no-scale skips the scale preset; --no-travel skips time travel, --travel-only runs
 * only it. --soak runs only the memory soak instead
 * (bench/ui/soak.ts: --minutes N, default 30, --rate R, default 5000, --snapshot-at M[,M2...] prints
 * the worker's largest classes from a heap snapshot at minute M, and what grew between snapshots). The build is used
 * as is; run `npm run build` first (the script builds when dist/ is missing).
 */
import { execSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, type CDPSession, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/browser';
import type { BenchResult } from '../harness';
import { runScaleBench } from './scale';
import { travelSample } from './travel';
import { launchForSoak, runSoak } from './soak';

const args = process.argv.slice(2);
const json = args.includes('--json');
const portIdx = args.indexOf('--port');
const port = portIdx >= 0 ? Number(args[portIdx + 1]) : 4181;
const root = join(import.meta.dirname ?? '.', '..', '..');
const distIdx = args.indexOf('--dist');
const dist = distIdx >= 0 ? (args[distIdx + 1] as string) : join(root, 'dist');
const roundsIdx = args.indexOf('--rounds');
const rounds = roundsIdx >= 0 ? Math.max(1, Number(args[roundsIdx + 1])) : 1;
const measureLoad = !args.includes('--no-load');
const travelOnly = args.includes('--travel-only');
const measureScale = !args.includes('--no-scale') && !travelOnly;
const travel = !args.includes('--no-travel');
const soak = args.includes('--soak');
const minutesIdx = args.indexOf('--minutes');
const snapshotIdx = args.indexOf('--snapshot-at');
// One minute or several ("4,12"): with two or more, the growth by class between them is printed too.
const snapshotAt =
  snapshotIdx >= 0
    ? String(args[snapshotIdx + 1])
        .split(',')
        .map(Number)
    : undefined;
const soakMinutes = minutesIdx >= 0 ? Math.max(1, Number(args[minutesIdx + 1])) : 30;
const rateIdx = args.indexOf('--rate');
const RATE = rateIdx >= 0 ? Math.max(1, Number(args[rateIdx + 1])) : 5000;

const results: BenchResult[] = [];
function report(r: BenchResult): void {
  results.push(r);
  if (json) console.log(JSON.stringify(r));
  else {
    const target = r.target ? `  target ${r.target}${r.met === undefined ? '' : r.met ? ' (met)' : ' (NOT met)'}` : '';
    console.log(`${r.name.padEnd(80)} ${r.value.toFixed(r.value >= 100 ? 0 : 1).padStart(10)} ${r.unit}${target}`);
  }
}

function initialJsSizes(): { initial: number; worker: number; files: string[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const refs = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => (m[1] as string).replace(/^\.?\//, ''));
  const files = [...new Set(refs)];
  let initial = 0;
  for (const f of files) initial += gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  let worker = 0;
  const assets = readdirSync(join(dist, 'assets'));
  for (const a of assets) {
    if (/^host-.*\.js$/.test(a)) worker += gzipSync(readFileSync(join(dist, 'assets', a)), { level: 9 }).length;
  }
  return { initial, worker, files };
}

async function waitForServer(url: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the preview server did not answer at ${url}`);
}

// Scripts that run in the page are plain strings: tsx would wrap named functions in a helper
// (__name) that does not exist in the page.
const FIRST_RECORD_WATCH = `
  (() => {
    const observer = new MutationObserver(() => {
      if (window.__firstRecordAt === undefined && document.querySelector('[data-testid^="record-orders-"]')) {
        window.__firstRecordAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  })();
`;

const COUNT_FRAMES = `
  new Promise((resolve) => {
    let frames = 0;
    let longest = 0;
    const start = performance.now();
    let last = start;
    const tick = (t) => {
      frames++;
      longest = Math.max(longest, t - last);
      last = t;
      if (t - start < 5000) requestAnimationFrame(tick);
      else resolve({ frames, ms: t - start, longest });
    };
    requestAnimationFrame(tick);
  })
`;

const TOTAL_LEO = `
  [...document.querySelectorAll('[data-testid^="partition-orders-"]')].reduce(
    (n, el) => n + Number(el.getAttribute('data-leo') ?? 0),
    0,
  )
`;

/** Navigation start -> first record cell in the DOM, measured inside the page. */
async function firstMeaningfulRender(page: Page, url: string): Promise<number> {
  await page.addInitScript({ content: FIRST_RECORD_WATCH });
  await page.goto(url);
  await page.waitForFunction('window.__firstRecordAt !== undefined', null, { timeout: 60_000 });
  return (await page.evaluate('window.__firstRecordAt')) as number;
}

async function main(): Promise<void> {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error('dist/ is missing: building the site first ...');
    execSync('npx vite build', { cwd: root, stdio: 'inherit' });
  }
  const browserChoice = findChromium();
  if (browserChoice.source === 'none') {
    console.error('No Chromium found: set PLAYWRIGHT_CHROMIUM_PATH or install chromium (see README).');
    process.exit(1);
  }

  if (!soak) {
    const sizes = initialJsSizes();
    report({
      name: 'ui: initial JS, gzipped',
      value: sizes.initial / 1024,
      unit: 'KB',
      target: '<= 250 KB',
      met: sizes.initial / 1024 <= 250,
    });
    report({ name: 'ui: engine worker JS, gzipped (loads in parallel)', value: sizes.worker / 1024, unit: 'KB' });
  }

  const server = spawn(
    'npx',
    ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1', '--outDir', dist],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  server.stdout?.resume();
  const url = `http://127.0.0.1:${port}/`;
  const browser = soak
    ? await launchForSoak()
    : await chromium.launch({ executablePath: browserChoice.executablePath, args: CHROMIUM_ARGS });
  try {
    await waitForServer(url, 30_000);
    if (soak) {
      process.exitCode = (await runSoak(browser, { url, minutes: soakMinutes, rate: RATE, snapshotAt })) ? 0 : 1;
      return;
    }

    if (measureLoad && !travelOnly) {
      const renders: number[] = [];
      for (let i = 0; i < 5; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        renders.push(await firstMeaningfulRender(page, url));
        await context.close();
      }
      renders.sort((a, b) => a - b);
      report({
        name: 'ui: time to first meaningful render (median of 5)',
        value: renders[2] as number,
        unit: 'ms',
      });
    }

    if (travel) {
      const t = await travelSample(browser, url);
      const sorted = [...t.seeks].sort((a, b) => a - b);
      const worst = sorted[sorted.length - 1] ?? 0;
      report({
        name: 'ui: time travel, checkpoints of a 10-minute run built (real time)',
        value: t.buildMs,
        unit: 'ms',
      });
      report({ name: 'ui: time travel, seek in a 10-minute run, median of 20', value: median(t.seeks), unit: 'ms' });
      report({
        name: 'ui: time travel, seek in a 10-minute run, worst of 20',
        value: worst,
        unit: 'ms',
        target: '<= 200 ms',
        met: worst <= 200,
      });
    }
    if (travelOnly) return;

    const samples: ProduceSample[] = [];
    for (let i = 0; i < rounds; i++) samples.push(await produceSample(browser, url));
    const med = (f: (s: ProduceSample) => number) => median(samples.map(f));
    const fps = med((s) => s.fps);
    const of = rounds > 1 ? ` (median of ${rounds})` : '';
    report({
      name: `ui: frames per second while producing ${RATE.toLocaleString('en-US')} records/s${of}`,
      value: fps,
      unit: 'fps',
      target: '>= 50',
      met: fps >= 50,
    });
    report({ name: 'ui: longest frame during that produce', value: med((s) => s.longest), unit: 'ms' });
    report({
      name: 'ui: records appended per second during the sample',
      value: med((s) => s.appended),
      unit: 'records/s',
    });
    for (const [metric, label] of METRICS) {
      report({ name: `ui: main thread ${label} per second`, value: med((s) => s.busy[metric] ?? 0), unit: 'ms/s' });
    }
    report({
      name: 'ui: main thread busy per frame drawn',
      value: med((s) => (s.busy.TaskDuration ?? 0) / s.fps),
      unit: 'ms',
    });
    if (!json && rounds > 1) console.log(`  fps by round: ${samples.map((s) => s.fps.toFixed(1)).join(' ')}`);

    if (measureScale) await runScaleBench(browser, url, report, { rounds });
  } finally {
    await browser.close();
    try {
      if (server.pid) process.kill(-server.pid);
    } catch {
      // The preview server has already exited.
    }
  }
}

/** Chrome's main-thread counters reported, with how they read in the report. */
const METRICS = [
  ['TaskDuration', 'busy (all tasks)'],
  ['ScriptDuration', 'script'],
  ['RecalcStyleDuration', 'style recalculation'],
  ['LayoutDuration', 'layout'],
] as const;

interface ProduceSample {
  fps: number;
  longest: number;
  appended: number;
  /** Milliseconds of each METRICS counter per second of the sample. */
  busy: Record<string, number>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** One bulk produce at RATE records/s in a fresh page: fps, longest frame and main-thread time for 5 s. */
async function produceSample(browser: Browser, url: string): Promise<ProduceSample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByTestId('app-ready').waitFor({ state: 'attached', timeout: 30_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await page.getByTestId('side-tab-producer').click();
  await page.getByTestId('producer-n').fill(String(RATE * 10));
  await page.getByTestId('producer-rate').fill(String(RATE));
  const leoBefore = await totalLeo(page);
  await page.getByTestId('producer-send-n').click();
  await page.waitForTimeout(1000);
  const leoStart = await totalLeo(page);
  const before = await metrics(cdp);
  const sample = (await page.evaluate(COUNT_FRAMES)) as { frames: number; ms: number; longest: number };
  const after = await metrics(cdp);
  const leoEnd = await totalLeo(page);
  if (leoEnd <= leoBefore) throw new Error('the producer did not append anything during the benchmark');
  await context.close();
  const seconds = sample.ms / 1000;
  const busy: Record<string, number> = {};
  for (const [m] of METRICS) busy[m] = (((after[m] ?? 0) - (before[m] ?? 0)) * 1000) / seconds;
  return {
    fps: sample.frames / seconds,
    longest: sample.longest,
    appended: (leoEnd - leoStart) / seconds,
    busy,
  };
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const r = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return Object.fromEntries(r.metrics.map((m) => [m.name, m.value]));
}

async function totalLeo(page: Page): Promise<number> {
  return (await page.evaluate(TOTAL_LEO)) as number;
}

await main();
