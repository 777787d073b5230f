import { expect, test } from './fixtures';

test('Send N of 0 or 10,000,000 and linger.ms -5 get a message and send nothing', async ({ app, page }) => {
  await app.open();
  await app.sideTab('producer');
  const error = page.getByTestId('producer-error');
  for (const n of ['0', '10000000']) {
    await page.getByTestId('producer-n').fill(n);
    await page.getByTestId('producer-send-n').click();
    await expect(error).toContainText('INVALID_REQUEST: Send N sends a whole number of records from 1 to 1,000,000');
  }
  await expect(page.getByTestId('job-progress')).toHaveCount(0);
  // The field keeps what was typed: nothing was clamped to 1,000,000.
  await expect(page.getByTestId('producer-n')).toHaveValue('10000000');

  // The panel tells Kafka 3.9's defaults from the demo's starting linger.ms.
  await expect(page.getByTestId('producer-defaults')).toContainText("Kafka 3.9's defaults: acks=all, linger.ms=0");
  await expect(page.getByTestId('producer-defaults')).toContainText('starts with linger.ms=5');
  await page.getByTestId('producer-linger').fill('-5');
  await expect(page.getByTestId('producer-settings-error')).toHaveText(
    'INVALID_CONFIG: Invalid value -5 for configuration linger.ms: Value must be at least 0',
  );
  await page.getByTestId('producer-linger').fill('20');
  await expect(page.getByTestId('producer-settings-error')).toHaveCount(0);
  await expect(page.getByTestId('producer-linger')).toHaveValue('20');
});

test('a lookup of 0x1 or -1 is refused with a message instead of being read as a number', async ({ app, page }) => {
  await app.open();
  await app.sideTab('lookup');
  for (const text of ['0x1', '-1']) {
    await page.getByTestId('lookup-offset').fill(text);
    await page.getByTestId('lookup-run').click();
    await expect(page.getByTestId('lookup-error')).toContainText('An offset is a whole number from 0');
  }
  await expect(page.getByTestId('lookup-result')).toHaveCount(0);
});
