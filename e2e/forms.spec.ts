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

test('create topic and add group take the fields as typed: "1e1" and an empty start index get a message, a padded group id is refused by name, not trimmed, and a blocked field never leaves the last error', async ({
  app,
  page,
}) => {
  await app.open();
  await page.getByTestId('create-topic').click();
  const error = page.getByRole('form', { name: 'Create topic' }).getByRole('alert');
  const topics = () => page.locator('[data-testid^="topic-tab-"]').count();
  const before = await topics();
  // A first, unrelated refusal (an internal name) ...
  await page.getByTestId('create-topic-name').fill('__inside');
  await page.getByTestId('create-topic-submit').click();
  await expect(error).toContainText('INVALID_TOPIC_EXCEPTION');
  // ... then 0 partitions, which the browser's own check would block without a word: the page says why instead.
  await page.getByTestId('create-topic-name').fill('typed');
  await page.getByTestId('create-topic-partitions').fill('0');
  await page.getByTestId('create-topic-submit').click();
  await expect(error).toContainText('INVALID_PARTITIONS: Partitions is a whole number from 1 to 1,000');
  await page.getByTestId('create-topic-partitions').fill('1e1');
  await page.getByTestId('create-topic-submit').click();
  await expect(error).toContainText('"1e1" is not one');
  await page.getByTestId('create-topic-partitions').fill('2');
  await page.getByTestId('create-topic-start').fill('');
  await page.getByTestId('create-topic-submit').click();
  await expect(error).toContainText(
    'The start index is a whole number from 0 to 100,000, in decimal digits; the field is empty',
  );
  expect(await topics()).toBe(before);
  await page.getByTestId('create-topic-start').fill('1');
  await page.getByTestId('create-topic-submit').click();
  await page.getByTestId('topic-tab-typed').click();
  await expect(page.locator('[data-testid^="partition-typed-"]')).toHaveCount(2);

  await page.getByTestId('board-tab-groups').click();
  await page.getByTestId('new-group-id').fill(' padded-group ');
  await page.getByTestId('add-group').click();
  await expect(page.getByTestId('board-error')).toContainText('INVALID_GROUP_ID: Group id " padded-group " must be');
  await expect(page.getByTestId('group-padded-group')).toHaveCount(0);
  await expect(page.getByTestId('new-group-id')).toHaveValue(' padded-group ');
});
