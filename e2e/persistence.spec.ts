import { defaultPartition } from '../src/engine/codec/murmur2';
import { expect, GlassboxPage, test } from './fixtures';

test('a reload is a cluster restart: the same records at the same offsets, and recovery reports', async ({
  app,
  page,
}) => {
  test.setTimeout(120_000);
  await app.open();
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  const keys = ['alpha', 'beta', 'gamma'];
  const placed: { key: string; partition: number; offset: number }[] = [];
  for (const key of keys) {
    const partition = defaultPartition(new TextEncoder().encode(key), partitions);
    await app.produce({ topic: 'orders', key, value: `v-${key}` });
    const cell = app.partition('orders', partition).locator(`[data-key="${key}"]`).last();
    await expect(cell).toBeVisible();
    const offset = Number((await cell.getAttribute('data-testid'))?.split('-').pop());
    placed.push({ key, partition, offset });
  }
  // flush.ms (1 s) hands each record to IndexedDB's write queue (the recovery point); it is saved
  // once the transaction completes: wait until every placed record is below its partition's
  // durable offset.
  for (const r of placed) {
    await expect
      .poll(async () => Number(await app.partition('orders', r.partition).getAttribute('data-durable')))
      .toBeGreaterThan(r.offset);
  }
  const durable = await Promise.all(
    Array.from({ length: partitions }, async (_, p) =>
      Number(await app.partition('orders', p).getAttribute('data-durable')),
    ),
  );

  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached();
  await page.getByTestId('time-play').click();
  await expect(page.getByTestId('recovery-report')).toContainText('Recovered from IndexedDB');
  // Nothing saved is lost (the restarted cluster's own clients may already have appended more).
  for (const [p, point] of durable.entries()) {
    expect(Number(await app.partition('orders', p).getAttribute('data-leo'))).toBeGreaterThanOrEqual(point);
  }
  // The records read back at the same offsets, found through the restarted log's own lookup path.
  await app.sideTab('lookup');
  for (const r of placed) {
    await page.getByTestId('lookup-partition').selectOption(`orders-${r.partition}`);
    await page.getByTestId('lookup-offset').fill(String(r.offset));
    await page.getByTestId('lookup-run').click();
    await page.getByTestId('lookup-play').click();
    const result = page.getByTestId('lookup-result');
    // Play walks the trace at a human pace (one step every 0.7 s).
    await expect(result).toHaveAttribute('data-offset', String(r.offset), { timeout: 30_000 });
    await expect(result).toContainText(`key ${r.key}`);
  }
});

test('closing the page in the middle of a bulk produce: recovery runs and saved records are intact', async ({
  app,
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await app.open();
  await app.sideTab('producer');
  await page.getByTestId('producer-n').fill('200000');
  await page.getByTestId('producer-rate').fill('2000');
  await page.getByTestId('producer-send-n').click();
  const job = page.getByTestId('job-progress');
  await expect(job).toHaveAttribute('data-state', 'running');
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  await expect
    .poll(async () => Number(await app.partition('orders', 0).getAttribute('data-durable')))
    .toBeGreaterThan(1000);
  // What the page says is saved (its IndexedDB transactions completed); then pull the plug mid-job.
  const durable = await Promise.all(
    Array.from({ length: partitions }, async (_, p) =>
      Number(await app.partition('orders', p).getAttribute('data-durable')),
    ),
  );
  await expect(job).toHaveAttribute('data-state', 'running');
  await page.close({ runBeforeUnload: false });

  const again = await context.newPage();
  const app2 = new GlassboxPage(again);
  await app2.open();
  await expect(again.getByTestId('recovery-report')).toBeVisible();
  for (const [p, point] of durable.entries()) {
    const marks = await app2.partition('orders', p).evaluate((el) => ({
      leo: Number(el.getAttribute('data-leo')),
      hw: Number(el.getAttribute('data-hw')),
    }));
    expect(marks.leo).toBeGreaterThanOrEqual(point);
    // The log is consistent: HW <= LEO, and the records at the log end read back.
    expect(marks.hw).toBeLessThanOrEqual(marks.leo);
    await expect(app2.partition('orders', p).locator('[data-testid^="record-orders-"]').first()).toBeVisible();
  }
  expect(app2.errors).toEqual([]);
});
