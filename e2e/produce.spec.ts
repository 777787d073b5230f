import { defaultPartition } from '../src/engine/codec/murmur2';
import { expect, test } from './fixtures';

const encoder = new TextEncoder();

test('keyed records land in the partition Kafka’s partitioner chooses', async ({ app, page }) => {
  await app.open();
  const keys = ['user-1', 'alice', 'bob', 'order-42', 'καφές', 'k'];
  for (const key of keys) {
    const expected = defaultPartition(encoder.encode(key), 3);
    const before = Number(await app.partition('orders', expected).getAttribute('data-leo'));
    await app.produce({ topic: 'orders', key, value: `value for ${key}` });
    const choice = page.getByTestId('partition-choice');
    await expect(choice).toHaveAttribute('data-partition', String(expected));
    await expect(choice).toHaveAttribute('data-strategy', 'key-hash');
    // The partition's log end moved by one and the new record (at the old LEO) carries the key.
    await expect(app.partition('orders', expected)).toHaveAttribute('data-leo', String(before + 1));
    const cell = page.getByTestId(`record-orders-${expected}-${before}`);
    await expect(cell).toHaveAttribute('data-key', key);
  }
  // The murmur2 breakdown is shown for the last key: bytes, hash, positive mask, modulo.
  await expect(page.getByTestId('choice-key-bytes')).toHaveText('6b');
  await expect(page.getByTestId('choice-modulo')).toContainText(String(defaultPartition(encoder.encode('k'), 3)));
});
