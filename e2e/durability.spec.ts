/**
 * "Saved" means saved: the tab is closed at random moments of a bulk produce and reopened on the
 * same browser profile, and every record below the durable offset the page showed
 * (`data-durable` on `partition-<topic>-<p>`) must come back at the same offset with the same key.
 *
 * Each round reads `data-durable` of every partition, exports the partitions (the worker's
 * exportPartition: the segment files as they are in memory) to learn which key sits at each of
 * those offsets, then closes the page without unload handlers and the browser with it. The next
 * round opens the same profile (IndexedDB persists), exports again and compares, decoding the
 * segment files with the engine's own codecs. The moments are drawn from a seeded generator; the
 * seed is printed (DURABILITY_SEED=<n> replays the same moments).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { decodeRecordBatches } from '../src/engine/codec';
import { CHROMIUM_ARGS, findChromium } from '../scripts/browser';
import { expect, GlassboxPage, test } from './fixtures';

const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 20);
/** Records per bulk Send N: small, so a round takes a few seconds. */
const N = Number(process.env.DURABILITY_N ?? 10000);
const TOPIC = 'orders';

/** mulberry32: a tiny seeded generator, so a failing run's moments can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const decoder = new TextDecoder();

/**
 * Catches the zips the page hands to the browser as downloads (URL.createObjectURL on the export's
 * Blob) and passes their bytes to the test at once: a browser download would take seconds to land
 * on disk, and the tab is to be closed right after the moment, while the job still runs.
 */
async function captureExports(context: BrowserContext): Promise<(name: string) => Promise<Uint8Array>> {
  const waiting = new Map<string, (bytes: Uint8Array) => void>();
  await context.exposeBinding('glassboxExported', (_source, name: string, base64: string) => {
    waiting.get(name)?.(new Uint8Array(Buffer.from(base64, 'base64')));
    waiting.delete(name);
  });
  // Plain script text: the e2e typecheck has no DOM library.
  await context.addInitScript({
    content: `(() => {
      const create = URL.createObjectURL.bind(URL);
      const click = HTMLAnchorElement.prototype.click;
      const blobs = new Map();
      URL.createObjectURL = (obj) => {
        const url = create(obj);
        if (obj instanceof Blob && obj.type === 'application/zip') blobs.set(url, obj);
        return url;
      };
      HTMLAnchorElement.prototype.click = function () {
        const blob = blobs.get(this.href);
        if (!blob || !this.download) return click.call(this);
        blobs.delete(this.href);
        const name = this.download;
        void blob.arrayBuffer().then((buffer) => {
          const bytes = new Uint8Array(buffer);
          let text = '';
          for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          window.glassboxExported(name, btoa(text));
        });
      };
    })();`,
  });
  return (name) => new Promise((resolve) => waiting.set(name, resolve));
}

/** offset -> key of every record in a partition, from its exported zip, decoded with the engine's codecs. */
function keysOf(zip: Uint8Array): Map<number, string | null> {
  const keys = new Map<number, string | null>();
  for (const [name, bytes] of Object.entries(unzipSync(zip))) {
    if (!name.endsWith('.log')) continue;
    for (const batch of decodeRecordBatches(bytes)) {
      for (const r of batch.records) keys.set(batch.baseOffset + r.offsetDelta, r.key ? decoder.decode(r.key) : null);
    }
  }
  return keys;
}

/**
 * Exports every partition at once: the buttons are clicked in one go inside the page (no
 * actionability waits on a page that redraws all the time), and the worker answers each between
 * two slices of the job.
 */
async function exportAll(
  page: Page,
  exported: (name: string) => Promise<Uint8Array>,
  partitions: number,
): Promise<Map<number, string | null>[]> {
  const zips = Array.from({ length: partitions }, (_, p) => exported(`${TOPIC}-${p}.zip`));
  const clicked = await page
    .locator(`[data-testid^="export-${TOPIC}-"]`)
    .evaluateAll((buttons) => buttons.map((b) => (b as unknown as { click(): void }).click()).length);
  expect(clicked).toBe(partitions);
  return (await Promise.all(zips)).map(keysOf);
}

test('closing the tab at 20 random moments of a bulk produce loses nothing below the shown durable offset', async ({
  baseURL,
}) => {
  test.setTimeout(900_000);
  const seed = Number(process.env.DURABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`durability seed ${seed} (DURABILITY_SEED=${seed} replays these moments)`);
  test.info().annotations.push({ type: 'seed', description: String(seed) });
  const random = seeded(seed);
  const profile = await mkdtemp(join(tmpdir(), 'glassbox-durability-'));
  const browser = findChromium();
  const launch = async () => {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: browser.executablePath,
      args: CHROMIUM_ARGS,
      baseURL,
      viewport: { width: 1280, height: 800 },
    });
    return { context, exported: await captureExports(context) };
  };

  /** Per partition, the keys at every offset below the durable offset shown before the last close. */
  let promised: Map<number, string | null>[] = [];
  let checkedRecords = 0;
  let lastPartitions = 0;
  let browserRun = await launch();
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      const { context, exported } = browserRun;
      for (const old of context.pages()) await old.close({ runBeforeUnload: false });
      const t0 = Date.now();
      const page = await context.newPage();
      const app = new GlassboxPage(page);
      await app.open();
      const partitions = await page.locator(`[data-testid^="partition-${TOPIC}-"]`).count();
      expect(partitions).toBeGreaterThan(0);

      // What the last round was shown as saved is all here, at the same offsets, with the same keys.
      if (round > 0) {
        await expect(page.getByTestId('recovery-report')).toBeVisible();
        expect(partitions).toBe(lastPartitions);
        const back = await exportAll(page, exported, partitions);
        for (let p = 0; p < partitions; p++) {
          const want = promised[p] as Map<number, string | null>;
          const got = back[p] as Map<number, string | null>;
          const lost = [...want].filter(([offset, key]) => !got.has(offset) || got.get(offset) !== key);
          expect(lost.slice(0, 5), `round ${round}, ${TOPIC}-${p}: records below the shown durable offset`).toEqual([]);
          checkedRecords += want.size;
        }
      }
      expect(app.errors).toEqual([]);
      const tOpen = Date.now() - t0;
      if (round === ROUNDS) break;

      // A bulk Send N with keys (key-0, key-1, ...) at rate 0 (as fast as the worker goes).
      await app.sideTab('producer');
      await page.getByTestId('producer-topic').selectOption(TOPIC);
      await page.getByTestId('producer-null-key').uncheck();
      await page.getByTestId('producer-n').fill(String(N));
      await page.getByTestId('producer-rate').fill('0');
      await page.getByTestId('producer-send-n').click();
      const job = page.getByTestId('job-progress').last();
      // The moment: once the job has sent a random share of its records.
      const share = random();
      await expect
        .poll(async () => Number((await job.getAttribute('data-done')) ?? 0), { timeout: 60_000, intervals: [50] })
        .toBeGreaterThanOrEqual(Math.ceil(share * N));
      // Which key sits at each offset (in memory, where the records are); then, in one go, the
      // durable offsets the page shows and the plug pulled, so no write can complete in between.
      const tMoment = Date.now() - t0;
      const now = await exportAll(page, exported, partitions);
      const tExport = Date.now() - t0;
      const shown = await page.locator(`[data-testid^="partition-${TOPIC}-"]`).evaluateAll((els) =>
        els.map((el) => ({
          id: el.getAttribute('data-testid'),
          durable: Number(el.getAttribute('data-durable')),
          recoveryPoint: Number(el.getAttribute('data-recovery-point')),
          leo: Number(el.getAttribute('data-leo')),
        })),
      );
      const state = await job.getAttribute('data-state');
      await page.close({ runBeforeUnload: false });
      const marks = Array.from({ length: partitions }, (_, p) => shown.find((m) => m.id === `partition-${TOPIC}-${p}`));
      // Below the shown durable offset, and below what the export saw (the log may have grown since).
      const durable = marks.map((m, p) =>
        Math.min(m?.durable ?? 0, Math.max(-1, ...(now[p] as Map<number, string | null>).keys()) + 1),
      );
      promised = now.map((keys, p) => new Map([...keys].filter(([offset]) => offset < (durable[p] as number))));
      for (const [p, keys] of promised.entries()) {
        // Every offset below the durable one is accounted for (offsets are contiguous: no compaction here).
        expect(keys.size, `${TOPIC}-${p} holds every offset below ${durable[p]}`).toBe(
          (durable[p] as number) - Math.min(...keys.keys(), durable[p] as number),
        );
      }
      lastPartitions = partitions;
      // Now and then the whole browser goes down too, and comes back on the same profile.
      const browserToo = round % 5 === 4;
      if (browserToo) {
        await context.close();
        browserRun = await launch();
      }
      console.log(
        `round ${round + 1}: tab closed at ${(share * 100).toFixed(0)}% of Send N (job ${state})${browserToo ? ', browser too' : ''}; durable/recovery point/LEO ${marks.map((m) => `${m?.durable}/${m?.recoveryPoint}/${m?.leo}`).join(' ')}: ${promised.reduce((n, m) => n + m.size, 0)} records promised (opened+checked ${tOpen} ms, moment ${tMoment} ms, exported ${tExport} ms)`,
      );
    }
    // The rounds promised something: a durable offset that never moved would pass vacuously.
    expect(checkedRecords).toBeGreaterThan(0);
  } finally {
    await browserRun.context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
