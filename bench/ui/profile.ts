/**
 * `npx tsx bench/ui/profile.ts [--dist DIR] [--port N] [--what produce|scale] [--ms N]`: where the
 * page's main thread spends its time during the UI benchmark's samples, from a CPU profile (CDP
 * Profiler, 200 µs sampling) of the page: the functions with the most self time, and the same
 * summed per source file. Build unminified for readable names:
 * `npx vite build --outDir /tmp/prof --minify false`, then `--dist /tmp/prof`.
 *
 *  - produce: the demo cluster while a bulk produce sends 5,000 records/s (as bench:ui);
 *  - scale: the large preset (50 brokers, 1,000 partitions), the brokers view then the groups view.
 *
 * --trace: Chrome's trace instead (self time per event on the page's main thread: script, style,
 * layout, paint, layerize, commit). --counters: only Chrome's main-thread counters, as bench:ui.
 * --css RULES adds a style sheet first (e.g. hide a part of the page to see what it costs).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type CDPSession, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/browser';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = join(import.meta.dirname ?? '.', '..', '..');
const dist = opt('--dist') ?? join(root, 'dist');
const port = Number(opt('--port') ?? 4402);
const what = opt('--what') ?? 'produce';
const ms = Number(opt('--ms') ?? 5000);
const top = Number(opt('--top') ?? 30);
let currentPage: Page | null = null;
/** --css RULES: a style sheet added before the sample (what costs what: hide a part, compare). */
const css = opt('--css');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function summarise(label: string, p: Profile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + ((p.timeDeltas[i + 1] ?? 0) as number));
  }
  const total = (p.endTime - p.startTime) / 1000;
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const f = n.callFrame;
    const file = f.url ? (f.url.split('/').pop() ?? f.url) : '(native)';
    const key = `${f.functionName || '(anonymous)'}  ${file}:${f.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us / 1000);
    byFile.set(file, (byFile.get(file) ?? 0) + us / 1000);
  }
  const busy = [...byFn.entries()].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)'));
  const busyMs = busy.reduce((n, [, v]) => n + v, 0);
  console.log(`\n== ${label}: ${total.toFixed(0)} ms profiled, ${busyMs.toFixed(0)} ms in JS/GC (self time)`);
  for (const [k, v] of [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${v.toFixed(1).padStart(9)} ms  ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  console.log('  by file:');
  for (const [k, v] of [...byFile.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`${v.toFixed(1).padStart(9)} ms  ${k}`);
}

/** Chrome's trace of the page's main thread: time per event name (self time: children subtracted). */
async function trace(page: Page, label: string): Promise<void> {
  const browser = page.context().browser();
  if (!browser) return;
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await new Promise((r) => setTimeout(r, ms));
  const buf = await browser.stopTracing();
  const events = (JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && pageThread(events, e),
  );
  if (!main) return;
  const mine = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: TraceEvent[] = [];
  const selfOf = new Map<TraceEvent, number>();
  for (const e of mine) {
    while (
      stack.length > 0 &&
      (stack[stack.length - 1] as TraceEvent).ts + ((stack[stack.length - 1] as TraceEvent).dur ?? 0) <= e.ts
    )
      stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) selfOf.set(parent, (selfOf.get(parent) ?? 0) - (e.dur ?? 0));
    selfOf.set(e, (selfOf.get(e) ?? 0) + (e.dur ?? 0));
    stack.push(e);
  }
  for (const [e, us] of selfOf) self.set(e.name, (self.get(e.name) ?? 0) + us / 1000);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\n== ${label}: trace of ${ms} ms, ${total.toFixed(0)} ms busy on the page's main thread (self time by event)`,
  );
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`${v.toFixed(1).padStart(9)} ms  ${k}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** The renderer main thread with the most events is the page's (the trace may hold others). */
function pageThread(events: TraceEvent[], t: TraceEvent): boolean {
  const count = (x: TraceEvent) => events.filter((e) => e.pid === x.pid && e.tid === x.tid).length;
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  return mains.every((m) => count(m) <= count(t));
}

/** Chrome's main-thread counters over the sample (ms per second), as bench:ui reports them. */
async function counters(cdp: CDPSession, label: string): Promise<void> {
  const read = async () =>
    Object.fromEntries(
      ((await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }).metrics.map(
        (m) => [m.name, m.value],
      ),
    ) as Record<string, number>;
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const a = await read();
  await new Promise((r) => setTimeout(r, ms));
  const b = await read();
  const per = (k: string) => ((((b[k] ?? 0) - (a[k] ?? 0)) * 1000) / ms) * 1000;
  const fields = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration'];
  console.log(
    `${label}${css ? ` [css: ${css}]` : ''}: ${fields.map((f) => `${f} ${per(f).toFixed(0)} ms/s`).join(', ')}`,
  );
}

async function profile(cdp: CDPSession, label: string): Promise<void> {
  if (css) await currentPage?.addStyleTag({ content: css });
  if (args.includes('--counters')) {
    await counters(cdp, label);
    return;
  }
  if (args.includes('--trace')) {
    await trace(currentPage as Page, label);
    return;
  }
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await new Promise((r) => setTimeout(r, ms));
  const { profile: p } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  summarise(label, p);
}

async function produce(page: Page, cdp: CDPSession): Promise<void> {
  await page.getByTestId('side-tab-producer').click();
  await page.getByTestId('producer-n').fill('50000');
  await page.getByTestId('producer-rate').fill('5000');
  await page.getByTestId('producer-send-n').click();
  await page.waitForTimeout(1000);
  await profile(cdp, 'produce 5,000 records/s');
}

async function scale(page: Page, cdp: CDPSession): Promise<void> {
  await page.locator('[data-testid="board"][data-ready="true"]').waitFor({ timeout: 60_000 });
  await page.getByTestId('board-tab-scenarios').click();
  await page.getByTestId('preset-large').click();
  const board = page.getByTestId('board');
  await page.waitForFunction(
    `document.querySelector('[data-testid="board"]')?.getAttribute('data-preset') === 'large'`,
    null,
    {
      timeout: 300_000,
      polling: 250,
    },
  );
  for (const tab of ['cluster', 'groups'] as const) {
    await page.getByTestId(`board-tab-${tab}`).click();
    await board.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(1500);
    await profile(cdp, `scale preset, ${tab} view`);
  }
}

async function main(): Promise<void> {
  const server = spawn(
    'npx',
    ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1', '--outDir', dist],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  server.stdout?.resume();
  const url = `http://127.0.0.1:${port}/`;
  const browser = await chromium.launch({ executablePath: findChromium().executablePath, args: CHROMIUM_ARGS });
  try {
    for (let i = 0; i < 150; i++) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByTestId('app-ready').waitFor({ state: 'attached', timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    currentPage = page;
    if (what === 'scale') await scale(page, cdp);
    else await produce(page, cdp);
  } finally {
    await browser.close();
    try {
      if (server.pid) process.kill(-server.pid);
    } catch {
      // already gone
    }
  }
}

void main();
