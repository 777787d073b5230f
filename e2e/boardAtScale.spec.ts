import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/** The numbers a closed card's replica counts show: leaders, in sync, out of sync, offline. */
async function counts(page: import('@playwright/test').Page, broker: number): Promise<number[]> {
  const text = (await page.getByTestId(`replica-counts-${broker}`).textContent()) ?? '';
  const m = /(\d+) leaders · (\d+) in sync · (\d+) out of sync · (\d+) offline/.exec(text);
  return m ? m.slice(1).map(Number) : [];
}

test('a large cluster closes its broker cards to counts, and a closed card follows its broker: kill, isolate, open', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app);
  // 120 partitions x RF 3 = 360 user replicas: past the board's 300, so cards show counts.
  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('wide');
  await page.getByTestId('create-topic-partitions').fill('120');
  await page.getByTestId('create-topic-rf').fill('3');
  await page.getByTestId('create-topic-submit').click();
  await expect(page.getByTestId('replica-counts-1')).toBeVisible();
  await board.advanceUntil(async () => ((await counts(page, 2))[0] ?? 0) > 0, 10);
  expect(await page.locator('[data-testid^="replica-wide-"]').count()).toBe(0);
  const before1 = await counts(page, 1);

  // Killed, broker 2's closed card says so at once, and its partitions' new leaders show up in
  // the other cards' counts: a closed card is drawn again when what it draws changes.
  await page.getByTestId('broker-kill-2').click();
  await expect(board.broker(2)).toHaveAttribute('data-drawn-state', 'session-alive');
  await expect(page.getByTestId('broker-state-2')).toContainText('process gone');
  await board.advanceUntil(async () => (await board.broker(2).getAttribute('data-drawn-state')) === 'down', 15);
  await board.advanceUntil(async () => ((await counts(page, 2))[3] ?? 0) > 0, 15);
  await board.advanceUntil(async () => ((await counts(page, 1))[0] ?? 0) > (before1[0] ?? 0), 15);

  // Isolated, broker 3's closed card trades its Isolate button for Heal.
  await page.getByTestId('broker-isolate-3').click();
  await expect(page.getByTestId('broker-heal-3')).toBeVisible();
  await expect(board.broker(3)).toHaveAttribute('data-drawn-state', 'isolated');

  // Opened, a card lists its chips; closed again, only the counts.
  await page
    .getByTestId('replica-counts-1')
    .getByRole('button', { name: /Show \d+ replicas/ })
    .click();
  const onBroker1 = page.locator('[data-testid^="replica-wide-"][data-testid$="-1"]');
  await expect(onBroker1.first()).toBeVisible();
  expect(await page.locator('[data-testid^="replica-wide-"][data-testid$="-2"]').count()).toBe(0);
  await page.getByTestId('replica-counts-1').getByRole('button', { name: 'Hide replicas' }).click();
  await expect(onBroker1).toHaveCount(0);
  expect(app.errors).toEqual([]);
});
