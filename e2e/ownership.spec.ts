import type { Page } from '@playwright/test';
import { defaultPartition } from '../src/engine/codec/murmur2';
import { expect, GlassboxPage, test } from './fixtures';

/**
 * The .log bytes IndexedDB holds for a partition (every broker's replica of `<topic>-<partition>`),
 * as text: read over the page's own connection to the database, so it shows what has committed,
 * not what the engine holds.
 */
async function storedLogText(page: Page, dir: string): Promise<string> {
  return page.evaluate(async (prefix) => {
    // Typed structurally: the e2e typecheck has no DOM lib.
    interface Req<T> {
      result: T;
      error: unknown;
      onsuccess: (() => void) | null;
      onerror: (() => void) | null;
    }
    interface Db {
      transaction(
        store: string,
        mode: string,
      ): {
        objectStore(name: string): {
          get(key: string): Req<unknown>;
          getAllKeys(): Req<unknown[]>;
        };
      };
      close(): void;
    }
    const settle = <T>(req: Req<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const factory = (globalThis as unknown as { indexedDB: { open(name: string): Req<Db> } }).indexedDB;
    const db = await settle(factory.open('glassbox'));
    try {
      const store = db.transaction('files', 'readonly').objectStore('files');
      // Keys only first (cheap), then the values of this partition's .log chunks.
      const keys = (await settle(store.getAllKeys()))
        .map(String)
        .filter((k) => k.includes(prefix) && k.includes('.log#'));
      const values = await Promise.all(keys.map((k) => settle(store.get(k))));
      let text = '';
      for (const value of values) text += new TextDecoder('latin1').decode(value as Uint8Array);
      return text;
    } finally {
      db.close();
    }
  }, `/${dir}/`);
}

test('a second tab gets the ownership notice and can take over', async ({ app, page, context }) => {
  await app.open();
  const second = new GlassboxPage(await context.newPage());
  await second.page.goto('/');
  const notice = second.page.getByTestId('ownership-notice');
  await expect(notice).toContainText('open in another tab');
  await expect(second.page.getByTestId('app-ready')).toHaveCount(0);

  await second.page.getByTestId('take-over').click();
  await expect(second.page.getByTestId('app-ready')).toBeAttached();
  await expect(second.partition('orders', 0)).toBeVisible();
  // The first tab stopped its engine and says so.
  await expect(page.getByTestId('ownership-notice')).toContainText('took this cluster over');
  expect(second.errors).toEqual([]);
});

test('Reset cluster asks first, then empties the cluster back to the demo', async ({ app, page }) => {
  await app.open();
  const leo0 = await app.partition('orders', 0).getAttribute('data-leo');
  await app.sideTab('lookup');
  await page.getByTestId('lookup-preset').click();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toBeVisible();
  for (let i = 0; i < 3; i++) await app.produce({ topic: 'orders', key: 'user-2', value: 'x' });

  await page.getByTestId('reset-cluster').click();
  await expect(page.getByTestId('reset-dialog')).toBeVisible();
  await page.getByTestId('reset-cancel').click();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toBeVisible();

  await page.getByTestId('reset-cluster').click();
  await page.getByTestId('reset-confirm').click();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toHaveCount(0);
  await expect(app.partition('orders', 0)).toHaveAttribute('data-leo', leo0 ?? '');
  // And it stays reset across a reload.
  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toHaveCount(0);
  await expect(app.partition('orders', 0)).toHaveAttribute('data-leo', leo0 ?? '');
});

test("a take-over in the middle of a bulk job: after both tabs close, every record the new owner wrote is intact and none of the old owner's writes landed after it", async ({
  app,
  page,
  context,
}) => {
  test.setTimeout(300_000);
  await app.open();
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  // Tab A: a bulk Send N as fast as it goes (keys key-0, key-1, ...), so IndexedDB has a queue.
  await app.sideTab('producer');
  await page.getByTestId('producer-null-key').uncheck();
  await page.getByTestId('producer-n').fill('1000000');
  await page.getByTestId('producer-rate').fill('0');
  await page.getByTestId('producer-send-n').click();
  const job = page.getByTestId('job-progress');
  await expect
    .poll(async () => Number(await job.getAttribute('data-done')), { timeout: 30_000 })
    .toBeGreaterThan(3_000);
  await expect(job).toHaveAttribute('data-state', 'running');

  // Tab B takes over mid-job.
  const b = new GlassboxPage(await context.newPage());
  await b.page.goto('/');
  await b.page.getByTestId('take-over').click();
  await expect(b.page.getByTestId('app-ready')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByTestId('ownership-notice')).toContainText('took this cluster over');
  // The restarted cluster settles first: each broker recovered its own replicas, which A had
  // flushed to different lengths, so leaders are elected and followers truncate or catch up.
  for (let p = 0; p < partitions; p++) {
    await expect
      .poll(
        async () =>
          b.partition('orders', p).evaluate((el) => el.getAttribute('data-hw') === el.getAttribute('data-leo')),
        { timeout: 30_000 },
      )
      .toBe(true);
  }
  // The take-over point: each partition's log end in B, recovered from what IndexedDB held.
  const takeOver = await Promise.all(
    Array.from({ length: partitions }, async (_, p) => Number(await b.partition('orders', p).getAttribute('data-leo'))),
  );

  // B produces; its records go to one partition (one key), at offsets B shows.
  const key = 'b-owner';
  const target = defaultPartition(new TextEncoder().encode(key), partitions);
  const sent: { offset: number; value: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const value = `b-value-${i}`;
    await b.produce({ topic: 'orders', key, value });
    const cell = b.partition('orders', target).locator(`[data-key="${key}"]`);
    await expect(cell).toHaveCount(i + 1, { timeout: 30_000 });
    const offset = Number((await cell.last().getAttribute('data-testid'))?.split('-').pop());
    sent.push({ offset, value });
  }
  expect(sent[0]!.offset).toBeGreaterThanOrEqual(takeOver[target]!);
  // B's records are flushed (unflushed bytes 0) and committed to IndexedDB: read them there.
  await expect(b.partition('orders', target)).toHaveAttribute('data-unflushed', '0', { timeout: 30_000 });
  const dir = `orders-${target}`;
  await expect
    .poll(
      async () => {
        const text = await storedLogText(b.page, dir);
        return sent.every((r) => text.includes(r.value));
      },
      { timeout: 30_000 },
    )
    .toBe(true);

  await page.close();
  await b.page.close();

  // A fresh tab recovers the cluster from IndexedDB.
  const c = new GlassboxPage(await context.newPage());
  await c.open();
  await expect(c.page.getByTestId('recovery-report')).toBeVisible();
  for (let p = 0; p < partitions; p++) {
    const leo = Number(await c.partition('orders', p).getAttribute('data-leo'));
    expect(leo).toBeGreaterThanOrEqual(p === target ? sent[sent.length - 1]!.offset + 1 : takeOver[p]!);
    // The log's tail (the record window follows the end) holds no record of A's job past the take-over.
    const cells = await c
      .partition('orders', p)
      .locator('[data-testid^="record-orders-"]')
      .evaluateAll((els) =>
        els.map((el) => ({
          offset: Number(el.getAttribute('data-testid')?.split('-').pop()),
          key: el.getAttribute('data-key'),
        })),
      );
    expect(cells.length).toBeGreaterThan(0);
    const late = cells.filter((cell) => cell.offset >= takeOver[p]! && /^key-\d+$/.test(cell.key ?? ''));
    expect(late, `A's records at or after the take-over offset ${takeOver[p]} of orders-${p}`).toEqual([]);
  }
  // Every record B produced is at its offset with its key and value, found by the log's lookup.
  await c.sideTab('lookup');
  for (const r of sent) {
    await c.page.getByTestId('lookup-partition').selectOption(`orders-${target}`);
    await c.page.getByTestId('lookup-offset').fill(String(r.offset));
    await c.page.getByTestId('lookup-run').click();
    // The last lookup's answer is cleared before the new trace is stepped.
    await expect(c.page.getByTestId('lookup-result')).toHaveCount(0);
    const result = await c.stepLookupToResult();
    await expect(result).toHaveAttribute('data-offset', String(r.offset));
    await expect(result).toContainText(`key ${key}`);
    await expect(result).toContainText(`value ${r.value}`);
  }
  expect(b.errors).toEqual([]);
  expect(c.errors).toEqual([]);
});

test('a tab closed in the middle of a bulk job does not keep the next one out: it opens as the owner, no take-over', async ({
  app,
  page,
  context,
}) => {
  await app.open();
  await app.sideTab('producer');
  await page.getByTestId('producer-n').fill('1000000');
  await page.getByTestId('producer-rate').fill('0');
  await page.getByTestId('producer-send-n').click();
  const job = page.getByTestId('job-progress');
  await expect.poll(async () => Number(await job.getAttribute('data-done'))).toBeGreaterThan(10_000);
  await expect(job).toHaveAttribute('data-state', 'running');
  await page.close({ runBeforeUnload: false });

  const next = new GlassboxPage(await context.newPage());
  await next.page.goto('/');
  // The closed tab's worker is gone with its lock: the new tab owns the cluster within seconds.
  await expect(next.page.getByTestId('app-ready')).toBeAttached({ timeout: 15_000 });
  await expect(next.page.getByTestId('ownership-notice')).toHaveCount(0);
  await expect(next.page.getByTestId('recovery-report')).toBeVisible();
  expect(next.errors).toEqual([]);
});

test('IndexedDB deleted under a running page: it says so, saves everything again from memory, and a reload finds it', async ({
  app,
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await app.open();
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  const key = 'kept-in-memory';
  const target = defaultPartition(new TextEncoder().encode(key), partitions);
  await app.produce({ topic: 'orders', key, value: 'v-kept' });
  const cell = app.partition('orders', target).locator(`[data-key="${key}"]`);
  await expect(cell).toHaveCount(1);
  const offset = Number((await cell.getAttribute('data-testid'))?.split('-').pop());
  await expect.poll(() => storedLogText(page, `orders-${target}`).then((t) => t.includes('v-kept'))).toBe(true);

  // Another page of the same origin deletes the database (what "Clear site data" does).
  const other = await context.newPage();
  await other.goto('/favicon.svg');
  const outcome = await other.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const factory = (
          globalThis as unknown as { indexedDB: { deleteDatabase(name: string): Record<string, unknown> } }
        ).indexedDB;
        const req = factory.deleteDatabase('glassbox');
        req.onsuccess = () => resolve('deleted');
        req.onerror = () => resolve('error');
      }),
  );
  expect(outcome).toBe('deleted'); // not blocked forever by the running page's connection
  await other.close();
  const notice = page.getByTestId('storage-lost-notice');
  await expect(notice).toContainText('deleted elsewhere');
  // Nothing is saved now: no partition may claim a durable record (closing the tab would lose them all).
  for (let p = 0; p < partitions; p++) await expect(app.partition('orders', p)).toHaveAttribute('data-durable', '0');

  await page.getByTestId('storage-repersist').click();
  await expect(notice).toHaveCount(0);
  // Saved again: durable once IndexedDB confirms the rewrite.
  await expect
    .poll(async () => Number(await app.partition('orders', target).getAttribute('data-durable')))
    .toBeGreaterThan(offset);
  await expect(page.getByTestId('storage-error')).toHaveCount(0);
  // Everything is back in IndexedDB, the record among it.
  await expect.poll(() => storedLogText(page, `orders-${target}`).then((t) => t.includes('v-kept'))).toBe(true);

  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached({ timeout: 20_000 });
  await expect(page.getByTestId('recovery-report')).toContainText('Recovered from IndexedDB');
  await app.sideTab('lookup');
  await page.getByTestId('lookup-partition').selectOption(`orders-${target}`);
  await page.getByTestId('lookup-offset').fill(String(offset));
  await page.getByTestId('lookup-run').click();
  const result = await app.stepLookupToResult();
  await expect(result).toHaveAttribute('data-offset', String(offset));
  await expect(result).toContainText(`key ${key}`);
  await expect(result).toContainText('value v-kept');
});

test("Take it back resumes from what is stored: the other tab's records stay, the tab's own stale address is no link to open", async ({
  app,
  page,
  context,
}) => {
  await app.open();
  const key = 'take-back';
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  const target = defaultPartition(new TextEncoder().encode(key), partitions);
  const cells = (p: Page) => p.getByTestId(`partition-orders-${target}`).locator(`[data-key="${key}"]`);
  // Tab A sends one record: its address now names its run (a #scenario= with the send in it).
  await app.produce({ topic: 'orders', key, value: 'from-a' });
  await expect(cells(page)).toHaveCount(1);
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('scenario=');

  // Tab B takes over and sends two more; they are saved before A takes the cluster back.
  const b = new GlassboxPage(await context.newPage());
  await b.page.goto('/');
  await b.page.getByTestId('take-over').click();
  await expect(b.page.getByTestId('app-ready')).toBeAttached({ timeout: 30_000 });
  for (const value of ['from-b-1', 'from-b-2']) await b.produce({ topic: 'orders', key, value });
  await expect(cells(b.page)).toHaveCount(3);
  await expect(b.partition('orders', target)).toHaveAttribute('data-unflushed', '0', { timeout: 30_000 });
  const leo = await b.partition('orders', target).getAttribute('data-durable');
  await expect(page.getByTestId('ownership-notice')).toContainText('took this cluster over');

  await page.getByTestId('take-over').click();
  await expect(b.page.getByTestId('ownership-notice')).toContainText('took this cluster over');
  await expect(page.getByTestId('app-ready')).toBeAttached({ timeout: 30_000 });
  // A shows what the store holds, B's records among them, and asked nothing (no link was opened).
  await expect(cells(page)).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId('discard-dialog')).toBeHidden();
  expect(Number(await app.partition('orders', target).getAttribute('data-leo'))).toBeGreaterThanOrEqual(Number(leo));
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
  expect(b.errors).toEqual([]);
});
