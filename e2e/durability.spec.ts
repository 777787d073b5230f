/**
 * "Saved" means saved: the tab is closed at random moments of a bulk produce and reopened on the
 * same browser profile, and every record below the durable offset the page showed
 * (`data-durable` on `partition-<topic>-<p>`) must come back at the same offset with the same key.
 *
 * The job writes to a topic of its own (created in the first round, so a reload must also bring
 * the topic back from meta/cluster.json), with keys key-0, key-1, ...: Kafka's default partitioner
 * says which partition each goes to, so the keys at every offset are known. Each round starts a
 * keyed Send N at rate 0, waits until a random share of it was sent, reads `data-durable` of every
 * partition and closes the page at once (no unload handlers; every fifth round the browser too).
 * The next round reopens the profile, exports the partitions (the zips are caught from the page
 * and decoded with the engine's codecs) and checks: the records read back before are unchanged,
 * and the last job's records form a prefix of what it sent that reaches the shown durable offset.
 * The moments are drawn from a seeded generator; the seed is printed (DURABILITY_SEED=<n> replays
 * them; DURABILITY_ROUNDS and DURABILITY_N shorten a run while debugging).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { decodeRecordBatches } from '../src/engine/codec';
import { defaultPartition } from '../src/engine/codec/murmur2';
import { CHROMIUM_ARGS, findChromium } from '../scripts/browser';
import { expect, GlassboxPage, test } from './fixtures';

const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 20);
/** Records per bulk Send N: small, so a round takes a few seconds. */
const N = Number(process.env.DURABILITY_N ?? 4000);
const TOPIC = 'durable';
const PARTITIONS = 3;

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
  // Where the job's keys go, in the order it sends them: Kafka's default partitioner for keyed records.
  const jobKeys: string[][] = Array.from({ length: PARTITIONS }, () => []);
  for (let i = 0; i < N; i++) {
    const key = `key-${i}`;
    jobKeys[defaultPartition(new TextEncoder().encode(key), PARTITIONS)]?.push(key);
  }

  /** Per partition: the keys at offsets 0, 1, ... as last read back, and the durable offset shown before the close. */
  const accepted: (string | null)[][] = Array.from({ length: PARTITIONS }, () => []);
  let shownDurable: number[] = [];
  let checkedRecords = 0;
  let browserRun = await launch();
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      const t0 = Date.now();
      const { context, exported } = browserRun;
      for (const old of context.pages()) await old.close({ runBeforeUnload: false });
      const page = await context.newPage();
      const app = new GlassboxPage(page);
      await app.open();
      if (round === 0) {
        // A topic of its own: nothing but the job writes to it, so every key it holds is predictable.
        await page.getByTestId('create-topic').click();
        await page.getByTestId('create-topic-name').fill(TOPIC);
        await page.getByTestId('create-topic-partitions').fill(String(PARTITIONS));
        await page.getByTestId('create-topic-rf').fill('1');
        await page.getByTestId('create-topic-submit').click();
      }
      await page.getByTestId(`topic-tab-${TOPIC}`).click();
      await expect(page.locator(`[data-testid^="partition-${TOPIC}-"]`)).toHaveCount(PARTITIONS);

      // Read back: what was there before is still there; what the last job added is a prefix of
      // what it sent (the records past the durable offset may be lost), reaching the durable offset.
      if (round > 0) {
        await expect(page.getByTestId('recovery-report')).toBeVisible();
        const back = await exportAll(page, exported, PARTITIONS);
        for (let p = 0; p < PARTITIONS; p++) {
          const got = back[p] as Map<number, string | null>;
          const before = accepted[p] as (string | null)[];
          const leo = got.size === 0 ? 0 : Math.max(...got.keys()) + 1;
          const where = `round ${round}, ${TOPIC}-${p}`;
          expect(leo, `${where}: every offset below the shown durable offset is back`).toBeGreaterThanOrEqual(
            shownDurable[p] as number,
          );
          const now = Array.from({ length: leo }, (_, o) => got.get(o));
          expect(now.slice(0, before.length), `${where}: the records read back before`).toEqual(before);
          const added = (jobKeys[p] as string[]).slice(0, leo - before.length);
          expect(now.slice(before.length), `${where}: the last job's records, same offsets, same keys`).toEqual(added);
          checkedRecords += shownDurable[p] as number;
          accepted[p] = now as (string | null)[];
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
      // The moment: once the job has sent a random share of its records. Then, in one go, the
      // durable offsets the page shows, and the plug pulled (no unload handlers).
      const share = random();
      await expect
        .poll(async () => Number((await job.getAttribute('data-done')) ?? 0), { timeout: 60_000, intervals: [50] })
        .toBeGreaterThanOrEqual(Math.ceil(share * N));
      const shown = await page.locator(`[data-testid^="partition-${TOPIC}-"]`).evaluateAll((els) =>
        els.map((el) => ({
          id: el.getAttribute('data-testid'),
          durable: Number(el.getAttribute('data-durable')),
          recoveryPoint: Number(el.getAttribute('data-recovery-point')),
          leo: Number(el.getAttribute('data-leo')),
        })),
      );
      await page.close({ runBeforeUnload: false });
      const tMoment = Date.now() - t0;
      const marks = Array.from({ length: PARTITIONS }, (_, p) => shown.find((m) => m.id === `partition-${TOPIC}-${p}`));
      shownDurable = marks.map((m) => m?.durable ?? 0);
      // Now and then the whole browser goes down too, and comes back on the same profile.
      const browserToo = round % 5 === 4;
      if (browserToo) {
        await context.close();
        browserRun = await launch();
      }
      console.log(
        `round ${round + 1}: closed at ${(share * 100).toFixed(0)}% of Send N${browserToo ? ', browser too' : ''}; durable/recovery point/LEO ${marks.map((m) => `${m?.durable}/${m?.recoveryPoint}/${m?.leo}`).join(' ')} (opened+checked ${tOpen} ms, closed ${tMoment} ms)`,
      );
    }
    // The rounds promised something: a durable offset that never moved would pass vacuously.
    expect(checkedRecords).toBeGreaterThan(0);
  } finally {
    await browserRun.context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
