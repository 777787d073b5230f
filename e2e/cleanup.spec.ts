import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/** Sends `n` keyed records (key-0 ... key-<n-1>) to orders from the producer panel and waits for the job. */
async function sendMany(page: Page, n: number): Promise<void> {
  await page.getByTestId('side-tab-producer').click();
  await page.getByTestId('producer-topic').selectOption('orders');
  await page.getByTestId('producer-null-key').uncheck();
  await page.getByTestId('producer-n').fill(String(n));
  await page.getByTestId('producer-rate').fill('0');
  await page.getByTestId('producer-send-n').click();
  await expect(page.getByTestId('job-progress').last()).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
}

test('retention.bytes deletes old segments and compaction rewrites them, each told on the partition', async ({
  app,
  page,
}) => {
  // 120 s: the reload below first waits until IndexedDB holds every record written (data-durable).
  test.setTimeout(120_000);
  await app.open();
  const form = page.getByTestId('topic-config-orders');
  await expect(form).toBeVisible();
  await expect(form.getByTestId('topic-retention-bytes')).toHaveValue('-1');
  await expect(form.getByTestId('topic-cleanup-policy')).toHaveValue('delete');

  // Enough records for several 64 KiB segments per partition.
  await sendMany(page, 12_000);
  const p0 = app.partition('orders', 0);
  await expect(p0).toHaveAttribute('data-leo', /^\d{4,}$/);
  expect(Number(await p0.getAttribute('data-log-start'))).toBe(0);

  // A bad value is refused with Kafka's error name and changes nothing.
  await form.getByTestId('topic-retention-bytes').fill('lots');
  await form.getByTestId('topic-config-apply').click();
  await expect(form.getByRole('alert')).toContainText('INVALID_CONFIG');

  await form.getByTestId('topic-retention-bytes').fill('1000');
  await form.getByTestId('topic-config-apply').click();
  await expect(page.getByTestId('topic-config-orders').getByTestId('topic-retention-bytes')).toHaveValue('1000');
  // The brokers check retention every 2 s here: move the engine's clock on until one has (on a
  // busy machine the page's frames, and with them engine time, run slower than the wall clock).
  const caption = page.getByTestId('cleanup-orders-0');
  const board = new BoardPage(app);
  const cleaned = (kind: string) => async () => (await caption.getAttribute('data-kind')) === kind;
  await board.advanceUntil(cleaned('retention'), 30);
  await expect(caption).toContainText('00000000000000000000.log');
  await expect(caption).toContainText('retention.bytes');
  await expect.poll(async () => Number(await p0.getAttribute('data-log-start'))).toBeGreaterThan(0);
  const logStart = Number(await p0.getAttribute('data-log-start'));
  await expect(caption).toContainText(`Log start offset is now ${logStart.toLocaleString('en-US')}`);
  await expect(p0.getByTestId('segment-orders-0-0')).toHaveCount(0);

  // Compaction: the same keys written twice, so the first copies are superseded.
  const again = page.getByTestId('topic-config-orders');
  await again.getByTestId('topic-retention-bytes').fill('-1');
  await again.getByTestId('topic-cleanup-policy').selectOption('compact');
  await again.getByTestId('topic-config-apply').click();
  await expect(page.getByTestId('topic-config-orders').getByTestId('topic-cleanup-policy')).toHaveValue('compact');
  await sendMany(page, 6000);
  await sendMany(page, 6000);
  await board.advanceUntil(cleaned('compaction'), 60);
  await expect(caption).toContainText(/[1-9][\d,]* superseded records?/);
  // The cleaner took the log because its dirty ratio exceeded min.cleanable.dirty.ratio (0.5).
  await expect(caption).toContainText(/dirty ratio (0\.[5-9]\d|1\.00)/);
  await expect(caption).toContainText('→');

  // A reload is a cluster restart: the topic keeps its changed config (as ZooKeeper would).
  // Wait until what was written is saved: every partition durable up to its log end of now.
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  for (let p = 0; p < partitions; p++) {
    const leo = Number(await app.partition('orders', p).getAttribute('data-leo'));
    await expect
      .poll(async () => Number(await app.partition('orders', p).getAttribute('data-durable')), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(leo);
  }
  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached({ timeout: 20_000 });
  await expect(page.getByTestId('topic-config-orders').getByTestId('topic-cleanup-policy')).toHaveValue('compact');
});
