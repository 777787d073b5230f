/**
 * The memory soak (issue 10, "memory stays bounded"): `npm run bench:ui -- --soak [--minutes 30]
 * [--rate 5000] [--dist DIR] [--port N]`. Not a timed test: a measurement.
 *
 * Opens the built site in Chromium (fresh profile, IndexedDB storage, default configs), keeps a
 * bulk Send N from the producer panel running at `--rate` records/s (100-byte values, the panel's
 * default; a new Send N of 1,000,000 whenever the last one finished), and every minute prints
 *  - the worker's JS heap (the engine's worker: CDP Runtime.getHeapUsage on the worker target),
 *  - the renderer's resident set (Linux: VmRSS in /proc/<pid>/status of the renderer process,
 *    found among the browser's child processes; the worker runs inside it, so it is included),
 *  - IndexedDB usage (navigator.storage.estimate) and the records appended so far.
 * It ends with PASS or FAIL against worker heap < 150 MB and renderer RSS < 600 MB (the peak of
 * the minute samples).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { type Browser, type CDPSession, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/browser';

export interface SoakOptions {
  url: string;
  minutes: number;
  rate: number;
  /** At these minutes, also take a heap snapshot of the worker and print its largest classes (and, from the second on, what grew since the first). */
  snapshotAt?: readonly number[];
}

const JOB_RECORDS = 1_000_000;
const RUNNING_JOB = '[data-testid="job-progress"][data-state="running"]';
const WORKER_HEAP_LIMIT_MB = 150;
const RENDERER_RSS_LIMIT_MB = 600;
const MB = 1024 * 1024;
/** The slope is taken from this minute on: the first minutes fill the caches (segment cache, time travel). */
const SETTLE_MINUTES = 3;

export interface Sample {
  minute: number;
  workerHeapMb: number;
  rendererRssMb: number;
  idbMb: number;
  records: number;
  /** Records of orders not yet confirmed by IndexedDB (LEO minus data-durable, summed): a write backlog shows here. */
  unsaved: number;
  /** The page's own JS heap and DOM nodes (what the renderer keeps besides the worker). */
  pageHeapMb: number;
  domNodes: number;
  /** The worker's heap as reserved (committed) and its ArrayBuffer backing stores, off the JS heap. */
  workerHeapTotalMb: number;
  workerBuffersMb: number;
}

const TOTAL_UNSAVED = `
  [...document.querySelectorAll('[data-testid^="partition-orders-"]')].reduce(
    (n, el) => n + Number(el.getAttribute('data-leo') ?? 0) - Number(el.getAttribute('data-durable') ?? 0),
    0,
  )
`;
const TOTAL_LEO = `
  [...document.querySelectorAll('[data-testid^="partition-orders-"]')].reduce(
    (n, el) => n + Number(el.getAttribute('data-leo') ?? 0),
    0,
  )
`;

/** Pids of every process below `root` (the browser), by walking /proc's parent links. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) follows the command in parentheses, which may hold spaces.
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(after[1]));
    } catch {
      // The process has exited.
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid === pid) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The largest renderer below the browser process: the one tab's renderer (a spare one stays small). */
function rendererRssMb(browserPid: number): number {
  let best = 0;
  for (const pid of descendants(browserPid)) {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.includes('--type=renderer') || cmd.includes('--extension-process')) continue;
    best = Math.max(best, rssMb(pid));
  }
  return best;
}

/** The browser's own pid: the chromium process whose parent is this Node process (or below it). */
function browserPid(): number {
  for (const pid of descendants(process.pid)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('chrom') && !cmd.includes('--type=')) return pid;
    } catch {
      // gone
    }
  }
  throw new Error('could not find the Chromium browser process below this one');
}

/**
 * A DevTools session on the engine's worker, through the browser target (Playwright's own CDP
 * sessions attach to pages only): Target.attachToTarget, then messages wrapped in
 * Target.sendMessageToTarget.
 */
class WorkerHeap {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  /** Snapshot chunks as HeapProfiler.addHeapSnapshotChunk delivers them (while one is taken). */
  private chunks: string[] | null = null;

  private constructor(
    private readonly cdp: CDPSession,
    private readonly sessionId: string,
  ) {
    cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
      if (e.sessionId !== this.sessionId) return;
      const m = JSON.parse(e.message) as { id?: number; result?: unknown; method?: string; params?: { chunk: string } };
      if (m.id !== undefined) this.waiting.get(m.id)?.(m.result);
      else if (m.method === 'HeapProfiler.addHeapSnapshotChunk' && this.chunks && m.params)
        this.chunks.push(m.params.chunk);
    });
  }

  static async attach(browser: Browser): Promise<WorkerHeap> {
    const cdp = await browser.newBrowserCDPSession();
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as {
        targetInfos: { targetId: string; type: string }[];
      };
      const worker = targetInfos.find((t) => t.type === 'worker');
      if (worker) {
        const { sessionId } = (await cdp.send('Target.attachToTarget', {
          targetId: worker.targetId,
          flatten: false,
        })) as { sessionId: string };
        return new WorkerHeap(cdp, sessionId);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the engine worker did not start');
  }

  private async call(method: string, params: object = {}): Promise<unknown> {
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve) => this.waiting.set(id, resolve));
    await this.cdp.send('Target.sendMessageToTarget', {
      sessionId: this.sessionId,
      message: JSON.stringify({ id, method, params }),
    });
    const r = await result;
    this.waiting.delete(id);
    return r;
  }

  /** Runtime.getHeapUsage of the worker's isolate: bytes used and reserved, and ArrayBuffer backing stores (off the heap). */
  async usage(): Promise<{ usedSize: number; totalSize: number; backingStorageSize?: number }> {
    return (await this.call('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
  }

  async collectGarbage(): Promise<void> {
    await this.call('HeapProfiler.collectGarbage');
  }

  /** A full heap snapshot (after a GC), as the parsed .heapsnapshot JSON. */
  async snapshot(): Promise<HeapSnapshot> {
    await this.call('HeapProfiler.enable');
    await this.call('HeapProfiler.collectGarbage');
    this.chunks = [];
    await this.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    const text = this.chunks.join('');
    this.chunks = null;
    return JSON.parse(text) as HeapSnapshot;
  }
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: (string[] | string)[] } };
  nodes: number[];
  strings: string[];
}

type ClassSizes = Map<string, { size: number; count: number }>;

/** Self size and count per (node type, constructor name): where the worker's memory is, by class. */
export function classSizes(snap: HeapSnapshot): ClassSizes {
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0] as string[];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const by: ClassSizes = new Map();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt] as number] ?? '?';
    let name = snap.strings[snap.nodes[i + nameAt] as number] ?? '?';
    // Strings and code are keyed by content: group them by type only.
    if (
      type === 'string' ||
      type === 'concatenated string' ||
      type === 'sliced string' ||
      type === 'code' ||
      type === 'number'
    )
      name = '';
    const key = `${type} ${name.slice(0, 60)}`;
    const size = snap.nodes[i + sizeAt] as number;
    const e = by.get(key);
    if (e) {
      e.size += size;
      e.count++;
    } else by.set(key, { size, count: 1 });
  }
  return by;
}

export function summarizeSnapshot(by: ClassSizes, top = 30): string[] {
  let total = 0;
  let nodes = 0;
  for (const v of by.values()) {
    total += v.size;
    nodes += v.count;
  }
  const rows = [...by].sort((a, b) => b[1].size - a[1].size).slice(0, top);
  return [
    `heap snapshot: ${(total / MB).toFixed(1)} MB self size in ${nodes} nodes`,
    ...rows.map(([k, v]) => `  ${(v.size / MB).toFixed(2).padStart(8)} MB ${String(v.count).padStart(9)} x  ${k}`),
  ];
}

/** The classes that grew most between two snapshots (self size and count added): what leaks. */
export function snapshotGrowth(before: ClassSizes, after: ClassSizes, top = 30): string[] {
  const rows: [string, number, number][] = [];
  for (const [k, v] of after) {
    const b = before.get(k) ?? { size: 0, count: 0 };
    rows.push([k, v.size - b.size, v.count - b.count]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  return rows
    .slice(0, top)
    .map(([k, size, count]) => `  ${(size / MB).toFixed(2).padStart(8)} MB ${String(count).padStart(9)} x  ${k}`);
}

async function sample(
  page: Page,
  pageCdp: CDPSession,
  worker: WorkerHeap,
  pid: number,
  minute: number,
): Promise<Sample> {
  // Retained memory, not garbage waiting for the next GC: collect first (the slope is about what stays).
  await worker.collectGarbage();
  await pageCdp.send('HeapProfiler.collectGarbage');
  const usage = await worker.usage();
  const heap = usage.usedSize;
  const pageHeap = (await pageCdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const dom = (await pageCdp.send('Memory.getDOMCounters')) as { nodes: number };
  const estimate = (await page.evaluate('navigator.storage.estimate()')) as { usage?: number };
  const records = (await page.evaluate(TOTAL_LEO)) as number;
  const unsaved = (await page.evaluate(TOTAL_UNSAVED)) as number;
  return {
    minute,
    workerHeapMb: heap / MB,
    rendererRssMb: rendererRssMb(pid),
    idbMb: (estimate.usage ?? 0) / MB,
    records,
    unsaved,
    pageHeapMb: pageHeap.usedSize / MB,
    domNodes: dom.nodes,
    workerHeapTotalMb: usage.totalSize / MB,
    workerBuffersMb: (usage.backingStorageSize ?? 0) / MB,
  };
}

function print(s: Sample): void {
  console.log(
    `minute ${String(s.minute).padStart(3)}  worker heap ${s.workerHeapMb.toFixed(1).padStart(7)} MB  renderer RSS ${s.rendererRssMb.toFixed(0).padStart(5)} MB  IndexedDB ${s.idbMb.toFixed(1).padStart(7)} MB  records ${s.records.toLocaleString('en-US')} (${s.unsaved.toLocaleString('en-US')} not saved yet)  (page heap ${s.pageHeapMb.toFixed(1)} MB, ${s.domNodes} DOM nodes; worker heap reserved ${s.workerHeapTotalMb.toFixed(0)} MB, buffers ${s.workerBuffersMb.toFixed(0)} MB)`,
  );
}

/** Runs the soak in an already launched browser against a served build; returns whether it passed. */
export async function runSoak(browser: Browser, options: SoakOptions): Promise<boolean> {
  const pid = browserPid();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(options.url);
  await page.getByTestId('app-ready').waitFor({ state: 'attached', timeout: 60_000 });
  const worker = await WorkerHeap.attach(browser);
  const pageCdp = await context.newCDPSession(page);
  const samples: Sample[] = [await sample(page, pageCdp, worker, pid, 0)];
  print(samples[0] as Sample);
  await page.getByTestId('side-tab-producer').click();
  // The panel sends at most 1,000,000 records per Send N (200 s at 5,000/s): a new one starts
  // whenever none is running, so the producer never stops.
  await page.getByTestId('producer-n').fill(String(JOB_RECORDS));
  await page.getByTestId('producer-rate').fill(String(options.rate));
  const keepProducing = async () => {
    if ((await page.locator(RUNNING_JOB).count()) === 0) await page.getByTestId('producer-send-n').click();
  };
  await keepProducing();
  await page.locator(RUNNING_JOB).first().waitFor({ state: 'attached', timeout: 30_000 });
  const started = Date.now();
  let firstSnapshot: { minute: number; by: ClassSizes } | undefined;
  for (let minute = 1; minute <= options.minutes; minute++) {
    const due = started + minute * 60_000;
    while (Date.now() < due) {
      await page.waitForTimeout(Math.min(2000, due - Date.now()));
      await keepProducing();
    }
    const s = await sample(page, pageCdp, worker, pid, minute);
    samples.push(s);
    print(s);
    if (options.snapshotAt?.includes(minute)) {
      const by = classSizes(await worker.snapshot());
      for (const line of summarizeSnapshot(by)) console.log(line);
      if (firstSnapshot) {
        console.log(`grown since minute ${firstSnapshot.minute}:`);
        for (const line of snapshotGrowth(firstSnapshot.by, by)) console.log(line);
      } else firstSnapshot = { minute, by };
    }
  }
  await context.close();
  const peakHeap = Math.max(...samples.map((s) => s.workerHeapMb));
  const peakRss = Math.max(...samples.map((s) => s.rendererRssMb));
  const last = samples[samples.length - 1] as Sample;
  const rate = last.records / ((options.minutes * 60_000) / 1000);
  const pass = peakHeap < WORKER_HEAP_LIMIT_MB && peakRss < RENDERER_RSS_LIMIT_MB;
  // Flat after the first minutes: the least-squares slope of the samples from minute SETTLE_MINUTES on.
  const settled = samples.filter((s) => s.minute >= Math.min(SETTLE_MINUTES, options.minutes - 1));
  console.log(
    `slope from minute ${settled[0]?.minute ?? 0}: worker heap ${slope(settled, (s) => s.workerHeapMb).toFixed(2)} MB/min, renderer RSS ${slope(settled, (s) => s.rendererRssMb).toFixed(2)} MB/min, page heap ${slope(settled, (s) => s.pageHeapMb).toFixed(2)} MB/min, worker heap reserved ${slope(settled, (s) => s.workerHeapTotalMb).toFixed(2)} MB/min, worker buffers ${slope(settled, (s) => s.workerBuffersMb).toFixed(2)} MB/min, IndexedDB ${slope(settled, (s) => s.idbMb).toFixed(2)} MB/min, DOM nodes ${slope(settled, (s) => s.domNodes).toFixed(1)}/min`,
  );
  // The slope over the whole settled span can hide a late climb: the last third is printed too.
  const lastThird = settled.slice(Math.floor((settled.length * 2) / 3));
  if (lastThird.length >= 3)
    console.log(
      `slope from minute ${lastThird[0]?.minute}: worker heap ${slope(lastThird, (s) => s.workerHeapMb).toFixed(2)} MB/min, renderer RSS ${slope(lastThird, (s) => s.rendererRssMb).toFixed(2)} MB/min`,
    );
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: ${options.minutes} min at ${options.rate.toLocaleString('en-US')} records/s asked (${rate.toFixed(0)} appended/s): peak worker heap ${peakHeap.toFixed(1)} MB (limit ${WORKER_HEAP_LIMIT_MB}), peak renderer RSS ${peakRss.toFixed(0)} MB (limit ${RENDERER_RSS_LIMIT_MB}), IndexedDB ${last.idbMb.toFixed(1)} MB`,
  );
  return pass;
}

/** The least-squares slope of `y` over the samples' minutes (MB per minute); 0 for fewer than two. */
export function slope(samples: readonly Sample[], y: (s: Sample) => number): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((a, s) => a + s.minute, 0) / n;
  const my = samples.reduce((a, s) => a + y(s), 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.minute - mx) * (y(s) - my);
    den += (s.minute - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export async function launchForSoak(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium().executablePath, args: CHROMIUM_ARGS });
}
