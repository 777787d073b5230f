import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/** Issue 12, "The first screen": every Kafka term on the board has a glossary popover on hover and focus. */
test('HW on a partition explains itself on hover and on Tab focus, and Escape hides it', async ({ app, page }) => {
  await BoardPage.paused(app);
  const partition = app.partition('orders', 0);
  await expect(partition).toBeVisible();
  const hw = partition.locator('.partition-marks [data-term="HW"]');
  const tip = page.getByRole('tooltip');

  await hw.hover();
  await expect(tip).toBeVisible();
  await expect(tip).toHaveAttribute('data-term', 'HW');
  await expect(tip).toContainText('High watermark');
  const tipId = await tip.getAttribute('id');
  await expect(hw).toHaveAttribute('aria-describedby', tipId ?? '');
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
  await expect(hw).not.toHaveAttribute('aria-describedby');

  // Keyboard: Tab from the "log start" term lands on HW and opens its popover.
  await page.mouse.move(0, 0);
  await partition.locator('.partition-marks [data-term="log start"]').focus();
  await expect(tip).toHaveAttribute('data-term', 'log start');
  await page.keyboard.press('Tab');
  await expect(hw).toBeFocused();
  await expect(tip).toHaveCount(1);
  await expect(tip).toHaveAttribute('data-term', 'HW');
  await expect(tip).toContainText('High watermark');
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();

  // The popover lives outside the partition, so the partition's text is what it was.
  await hw.hover();
  await expect(tip).toBeVisible();
  await expect(partition).not.toContainText('High watermark');
});

test('broker and group cards carry glossary terms, and axe finds no serious violations with a popover open', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app);
  const tip = page.getByRole('tooltip');

  await page.getByTestId('controller-badge-1').locator('[data-term="controller epoch"]').hover();
  await expect(tip).toContainText('/controller_epoch');
  await board.replica('orders', 0, 1).locator('[data-term="leader epoch"]').hover();
  await expect(tip).toHaveAttribute('data-term', 'leader epoch');
  const serious = async () =>
    (await new AxeBuilder({ page }).include('[data-testid="board"]').include('.topic-partitions').analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(await serious(), 'cluster board').toEqual([]);

  await board.tab('groups');
  const card = page.locator('[data-testid^="group-"][data-generation]').first();
  await expect(card).toBeVisible();
  await card.locator('header [data-term="generation"]').hover();
  await expect(tip).toContainText('rebalance');
  await card.locator('.group-coordinator [data-term="coordinator"]').focus();
  await expect(tip).toHaveAttribute('data-term', 'coordinator');
  await expect(tip).toContainText('__consumer_offsets');
  expect(await serious(), 'groups board').toEqual([]);
});
