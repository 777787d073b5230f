import { defaultPartition } from '../src/engine/codec/murmur2';
import { expect, test } from './fixtures';

const encoder = new TextEncoder();

test('keyed records land in the partition Kafka’s partitioner chooses', async ({ app, page }) => {
  await app.open();
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  expect(partitions).toBeGreaterThan(1);
  test.setTimeout(120_000);
  const keys = ['alice', 'καφές', 'k'];
  for (const key of keys) {
    const expected = defaultPartition(encoder.encode(key), partitions);
    await app.produce({ topic: 'orders', key, value: `value for ${key}` });
    const choice = page.getByTestId('partition-choice');
    await expect(choice).toHaveAttribute('data-key', key);
    await expect(choice).toHaveAttribute('data-partition', String(expected));
    await expect(choice).toHaveAttribute('data-strategy', 'key-hash');
    // The record reaches the leader's log of that partition (the view follows the log end).
    await expect(app.partition('orders', expected).locator(`[data-key="${key}"]`).first()).toBeVisible();
    for (let p = 0; p < partitions; p++) {
      if (p !== expected) await expect(app.partition('orders', p).locator(`[data-key="${key}"]`)).toHaveCount(0);
    }
  }
  // The murmur2 breakdown is shown for the last key: bytes, hash, positive mask, modulo.
  await expect(page.getByTestId('choice-key-bytes')).toHaveText('6b');
  await expect(page.getByTestId('choice-modulo')).toContainText(
    String(defaultPartition(encoder.encode('k'), partitions)),
  );
});

test('a long "Send N" runs as a job with progress, and Cancel stops it', async ({ app, page }) => {
  await app.open();
  await app.sideTab('producer');
  await page.getByTestId('producer-n').fill('100000');
  await page.getByTestId('producer-rate').fill('1000');
  await page.getByTestId('producer-send-n').click();
  const job = page.getByTestId('job-progress');
  await expect(job).toHaveAttribute('data-state', 'running');
  await expect.poll(async () => Number(await job.getAttribute('data-done'))).toBeGreaterThan(200);
  await page.getByTestId('job-cancel').click();
  await expect(job).toHaveAttribute('data-state', 'cancelled');
  const done = Number(await job.getAttribute('data-done'));
  expect(done).toBeLessThan(100_000);
  // Later frames carry the job's progress: it no longer moves.
  await app.frames(20);
  expect(Number(await job.getAttribute('data-done'))).toBe(done);
});
