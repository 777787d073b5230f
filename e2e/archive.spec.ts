import { readFile } from 'node:fs/promises';
import { unzipSync, zipSync } from 'fflate';
import { decodeRecordBatches } from '../src/engine/codec';
import { dumpSegmentFile } from '../src/engine/codec/dumpLog';
import { makeBatch, makeRecords } from '../src/engine/log/testSupport';
import { expect, test } from './fixtures';

test('export a partition as real segment files; import them back; a corrupt file is rejected and changes nothing', async ({
  app,
  page,
}) => {
  await app.open();
  // The demo's background producer fills orders; wait for a few batches in partition 1.
  await expect.poll(async () => Number(await app.partition('orders', 1).getAttribute('data-leo'))).toBeGreaterThan(4);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-orders-1').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('orders-1.zip');
  const zip = new Uint8Array(await readFile((await download.path()) as string));
  const files = unzipSync(zip);
  const log = files['orders-1/00000000000000000000.log'];
  expect(log).toBeDefined();
  expect(files['orders-1/00000000000000000000.index']).toBeDefined();
  expect(files['orders-1/00000000000000000000.timeindex']).toBeDefined();
  // A RecordBatch v2 file: magic byte 2 at offset 16 of the first batch, base offset 0.
  expect(log?.[16]).toBe(2);
  // The files read cleanly with the dump-log formatter (`npm run dump-log`), index cross-checked against the log.
  const dumped = dumpSegmentFile('orders-1/00000000000000000000.log', log as Uint8Array);
  expect(dumped.ok).toBe(true);
  expect(dumped.stdout.some((l) => l.startsWith('baseOffset: 0 '))).toBe(true);
  const index = dumpSegmentFile(
    'orders-1/00000000000000000000.index',
    files['orders-1/00000000000000000000.index'] as Uint8Array,
    {},
    { log: log as Uint8Array },
  );
  expect(index.ok).toBe(true);

  // A corrupt copy: one flipped bit inside the second batch's records.
  const bad = new Uint8Array(log as Uint8Array);
  const firstBatchSize = new DataView(bad.buffer).getInt32(8) + 12;
  const secondBaseOffset = Number(new DataView(bad.buffer).getBigInt64(firstBatchSize));
  bad[firstBatchSize + 70] = (bad[firstBatchSize + 70] as number) ^ 0x01;
  const corrupt = zipSync({ 'orders-1/00000000000000000000.log': bad });
  const topicsBefore = await page.getByRole('tab', { name: /partitions/ }).count();
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'corrupt.zip', mimeType: 'application/zip', buffer: Buffer.from(corrupt) });
  const message = page.getByTestId('import-message');
  await expect(message).toHaveAttribute('data-ok', 'false');
  await expect(message).toContainText(`position ${firstBatchSize}`);
  await expect(message).toContainText(`offset ${secondBaseOffset}`);
  await expect(message).toContainText('CRC');
  await expect(page.getByRole('tab', { name: /partitions/ })).toHaveCount(topicsBefore);

  // The untouched export imports as a new topic with the same records.
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'orders-1.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
  await expect(message).toHaveAttribute('data-ok', 'true');
  const exportedEnd = Object.entries(files)
    .filter(([name]) => name.endsWith('.log'))
    .flatMap(([, bytes]) => decodeRecordBatches(bytes))
    .reduce((end, b) => Math.max(end, b.baseOffset + b.lastOffsetDelta + 1), 0);
  await expect(app.partition('orders-imported', 1)).toHaveAttribute('data-leo', String(exportedEnd));
});

test('a zip that names a 5000-partition folder, or holds overlapping segments, is refused with a typed error and creates no topic', async ({
  app,
  page,
}) => {
  await app.open();
  // Two records at least, so the exported segment 0 holds offset 1 (what segment 1 would overlap).
  await expect.poll(async () => Number(await app.partition('orders', 1).getAttribute('data-leo'))).toBeGreaterThan(1);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-orders-1').click();
  const files = unzipSync(new Uint8Array(await readFile((await (await downloading).path()) as string)));
  const log = files['orders-1/00000000000000000000.log'] as Uint8Array;
  const topicsBefore = await page.getByRole('tab', { name: /partitions/ }).count();
  const message = page.getByTestId('import-message');

  // Importing wide-5000/ would create a topic of 5,001 partitions.
  await page.getByTestId('import-file').setInputFiles({
    name: 'wide.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(zipSync({ 'wide-5000/00000000000000000000.log': log })),
  });
  await expect(message).toHaveAttribute('data-ok', 'false');
  await expect(message).toContainText('INVALID_PARTITIONS');
  // The code is named once, not "INVALID_PARTITIONS: INVALID_PARTITIONS: ...".
  expect(((await message.textContent()) ?? '').split('INVALID_PARTITIONS').length).toBe(2);

  // Segment 1 beside segment 0, which already holds offset 1 and later.
  const last = decodeRecordBatches(log).at(-1);
  expect((last?.baseOffset ?? 0) + (last?.lastOffsetDelta ?? 0)).toBeGreaterThan(0);
  await page.getByTestId('import-file').setInputFiles({
    name: 'overlap.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(
      zipSync({
        'orders-1/00000000000000000000.log': log,
        'orders-1/00000000000000000001.log': new Uint8Array(0),
      }),
    ),
  });
  await expect(message).toContainText('overlaps');
  await expect(message).toHaveAttribute('data-ok', 'false');
  await expect(message).toContainText('CORRUPT_MESSAGE');
  await expect(page.getByRole('tab', { name: /partitions/ })).toHaveCount(topicsBefore);
  await expect(page.locator('[data-testid^="partition-wide-"]')).toHaveCount(0);
  await expect(page.locator('[data-testid^="partition-orders-imported-"]')).toHaveCount(0);
});

test('an import of wide-999/ (a topic of 1,000 partitions) keeps the page answering: the logs are drawn a page at a time', async ({
  app,
  page,
}) => {
  await app.open();
  const zip = zipSync({ 'wide-999/00000000000000000000.log': makeBatch(makeRecords(4), { baseOffset: 0 }) });
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'wide.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
  await expect(page.getByTestId('import-message')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('topic-tab-wide')).toContainText('1000 partitions');
  // The worker keeps being answered (frames land) and the selected topic draws 100 logs, not 1,000.
  await app.frames(3);
  const logs = page.locator('[data-testid^="partition-wide-"]');
  await expect(logs).toHaveCount(100);
  await expect(page.getByTestId('partition-wide-999')).toHaveCount(0);
  await page.getByTestId('partitions-more').click();
  await expect(logs).toHaveCount(200);
  await app.frames(3);
});
