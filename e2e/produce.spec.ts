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
