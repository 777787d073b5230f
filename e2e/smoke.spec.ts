import { expect, test } from './fixtures';

test('the page loads without console errors and lists the demo log segment files', async ({ app, page }) => {
  await app.open();
  const partition = app.partition('orders', 0);
  await expect(partition).toBeVisible();
  // Real Kafka file names: the 20-digit zero-padded base offset, and all three files of a segment.
  await page.getByTestId('files-orders-0').click();
  const files = partition.getByTestId('segment-file');
  await expect(files.filter({ hasText: '00000000000000000000.log' })).toHaveCount(1);
  await expect(files.filter({ hasText: '00000000000000000000.index' })).toHaveCount(1);
  await expect(files.filter({ hasText: '00000000000000000000.timeindex' })).toHaveCount(1);
  await expect(page.getByTestId('record-count-orders-0')).toHaveText(/^[1-9][\d,]*$/);
  await expect(partition.getByTestId('segment-orders-0-0')).toBeVisible();
});

test('the page says which Kafka it follows and shows FIDELITY.md as text', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('about-open').click();
  const dialog = page.getByTestId('about-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Apache Kafka 3.9 in ZooKeeper mode');
  // The fidelity table itself, with a known row: the demo's small segments.
  await expect(page.getByTestId('about-fidelity')).toContainText('segment.bytes');
  await page.getByTestId('about-close').click();
  await expect(dialog).toBeHidden();
});
