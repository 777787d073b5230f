import { expect, test } from './fixtures';

test('stepping the seeds’ lookup of offset 170418 walks segments, index and log to segment 170410', async ({
  app,
  page,
}) => {
  await app.open();
  await app.sideTab('lookup');
  await page.getByTestId('lookup-preset').click();
  const count = page.getByTestId('lookup-step-index');
  await expect(count).toHaveText(/^step 1 of \d+$/);
  const total = Number((await count.textContent())?.match(/of (\d+)/)?.[1]);
  expect(total).toBeGreaterThan(4);

  // The preset's partition has exactly the seeds' three segments.
  for (const base of [0, 170410, 239430]) await expect(page.getByTestId(`lookup-segment-${base}`)).toBeVisible();

  // Step to the end, checking each step is shown with its own explanation.
  const explanation = page.getByTestId('lookup-explanation');
  const kinds: string[] = [];
  for (let i = 0; i < total; i++) {
    await expect(count).toHaveText(`step ${i + 1} of ${total}`);
    const step = page.getByTestId(`lookup-trace-step-${i}`);
    await expect(step).toHaveClass(/current/);
    kinds.push((await step.getAttribute('data-kind')) ?? '');
    await expect(explanation).not.toBeEmpty();
    if (i < total - 1) await page.getByTestId('lookup-step').click();
  }
  await expect(page.getByTestId('lookup-step')).toBeDisabled();

  // Kafka's read path, in order: range check, floor search, index search, forward scan, record.
  expect(kinds[0]).toBe('range-check');
  expect(kinds).toContain('segment-probe');
  const chosen = kinds.indexOf('segment-chosen');
  const indexResult = kinds.indexOf('index-result');
  const firstScan = kinds.indexOf('batch-header');
  expect(chosen).toBeGreaterThan(0);
  expect(indexResult).toBeGreaterThan(chosen);
  expect(firstScan).toBeGreaterThan(indexResult);
  expect(kinds[kinds.length - 1]).toBe('record-found');
  await expect(page.getByTestId('lookup-segment-170410')).toHaveClass(/chosen/);

  // The answer: segment 170410, through the index entry [8, 1325] to the batch at byte 1325.
  const result = page.getByTestId('lookup-result');
  await expect(result).toHaveAttribute('data-segment', '170410');
  await expect(result).toHaveAttribute('data-position', '1325');
  await expect(result).toHaveAttribute('data-offset', '170418');
  await expect(result).toContainText('00000000000000170410.log');

  // Back steps backwards; Play replays to the same end.
  await page.getByTestId('lookup-back').click();
  await expect(count).toHaveText(`step ${total - 1} of ${total}`);
  await expect(result).toBeHidden();
  await page.getByTestId('lookup-play').click();
  await expect(count).toHaveText(`step ${total} of ${total}`);
  await expect(result).toHaveAttribute('data-position', '1325');
});

test('a lookup past the log end reports OFFSET_OUT_OF_RANGE', async ({ app, page }) => {
  await app.open();
  await app.sideTab('lookup');
  await page.getByTestId('lookup-partition').selectOption('orders-0');
  await page.getByTestId('lookup-offset').fill('99999999');
  await page.getByTestId('lookup-run').click();
  const count = page.getByTestId('lookup-step-index');
  await expect(count).toHaveText(/^step 1 of \d+$/);
  await page.getByTestId('lookup-play').click();
  await expect(page.getByTestId('lookup-result')).toHaveAttribute('data-error', 'OFFSET_OUT_OF_RANGE');
});
