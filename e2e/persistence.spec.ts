import { defaultPartition } from '../src/engine/codec/murmur2';
import { expect, GlassboxPage, test } from './fixtures';

test('a reload is a cluster restart: the same records at the same offsets, and recovery reports', async ({
  app,
  page,
}) => {
  await app.open();
  const keys = ['alpha', 'beta', 'gamma', 'delta'];
  const placed: { key: string; partition: number; offset: number }[] = [];
  for (const key of keys) {
    const partition = defaultPartition(new TextEncoder().encode(key), 3);
    await app.produce({ topic: 'orders', key, value: `v-${key}` });
    const cell = app.partition('orders', partition).locator(`[data-key="${key}"]`).last();
    await expect(cell).toBeVisible();
    const offset = Number((await cell.getAttribute('data-testid'))?.split('-').pop());
    placed.push({ key, partition, offset });
  }
  // Wait until flush.ms has handed everything to IndexedDB.
  for (const p of [0, 1, 2]) await expect(app.partition('orders', p)).toHaveAttribute('data-unflushed', '0');
  const leos = await Promise.all([0, 1, 2].map((p) => app.partition('orders', p).getAttribute('data-leo')));

  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached();
  await expect(page.getByTestId('recovery-report')).toContainText('Recovered from IndexedDB');
  for (const [p, leo] of leos.entries())
    await expect(app.partition('orders', p)).toHaveAttribute('data-leo', leo ?? '');
  for (const r of placed) {
    await expect(page.getByTestId(`record-orders-${r.partition}-${r.offset}`)).toHaveAttribute('data-key', r.key);
  }
});

test('closing the page in the middle of a bulk produce: recovery runs and flushed records are intact', async ({
  app,
  page,
  context,
}) => {
  await app.open();
  await app.sideTab('producer');
  await page.getByTestId('producer-n').fill('300000');
  await page.getByTestId('producer-rate').fill('20000');
  await page.getByTestId('producer-send-n').click();
  const job = page.getByTestId('job-progress');
  await expect(job).toHaveAttribute('data-state', 'running');
  await expect
    .poll(async () => Number(await app.partition('orders', 0).getAttribute('data-recovery-point')))
    .toBeGreaterThan(5000);
  const durable = await Promise.all(
    [0, 1, 2].map(async (p) => Number(await app.partition('orders', p).getAttribute('data-recovery-point'))),
  );
  // Give IndexedDB time to commit what was handed to it, then pull the plug mid-job.
  await page.waitForTimeout(1500);
  await expect(job).toHaveAttribute('data-state', 'running');
  await page.close({ runBeforeUnload: false });

  const again = await context.newPage();
  const app2 = new GlassboxPage(again);
  await app2.open();
  await expect(again.getByTestId('recovery-report')).toBeVisible();
  for (const [p, point] of durable.entries()) {
    const leo = Number(await app2.partition('orders', p).getAttribute('data-leo'));
    expect(leo).toBeGreaterThanOrEqual(point);
    // The log is consistent: HW = LEO on a single replica, and the log end record reads back.
    await expect(app2.partition('orders', p)).toHaveAttribute('data-hw', String(leo));
    await expect(again.getByTestId(`record-orders-${p}-${leo - 1}`)).toBeVisible();
  }
  expect(app2.errors).toEqual([]);
});
