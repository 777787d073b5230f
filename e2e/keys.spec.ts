import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

test('K kills the selected partition’s leader (a new one is elected), R restarts it', async ({ app, page }) => {
  const board = await BoardPage.paused(app);
  // No partition chosen: K aims at partition 0 of the topic shown (orders-0, led by broker 1).
  const leader = await board.leaderOf('orders', 0);
  expect(leader).not.toBeNull();
  await page.locator('body').press('k');
  await expect(board.broker(leader as number)).toHaveAttribute('data-state', 'down');
  await expect(page.getByTestId('shortcut-said')).toContainText(`killed broker ${leader}, leader of orders-0`);
  // What a shortcut did takes the top bar's spare room, cut short there: the bar stays one line.
  expect((await page.locator('.topbar').boundingBox())?.height ?? 0).toBeLessThan(60);
  // The controller elects once ZooKeeper expires the dead broker's session.
  await board.advanceUntil(async () => {
    const l = await board.leaderOf('orders', 0);
    return l !== null && l !== leader;
  }, 20);
  await expect(board.replica('orders', 0, leader as number)).toHaveAttribute('data-role', 'offline');

  await page.locator('body').press('r');
  await expect(page.getByTestId('shortcut-said')).toContainText(`restarted broker ${leader}`);
  await expect(board.broker(leader as number)).toHaveAttribute('data-state', 'running');
});

test('P produces one record with the producer panel’s key and value; keys typed into a field stay there', async ({
  app,
  page,
}) => {
  await app.open();
  await app.sideTab('producer');
  await page.getByTestId('producer-topic').selectOption('orders');
  // Typing "p" into the key field types it; it does not produce.
  await page.getByTestId('producer-key').fill('');
  await page.getByTestId('producer-key').press('p');
  await expect(page.getByTestId('producer-key')).toHaveValue('p');
  await page.getByTestId('producer-key').fill('from-key-p');
  await page.getByTestId('producer-value').fill('sent by P');
  await page.getByTestId('producer-value').blur();
  await page.locator('body').press('p');
  await expect(page.getByTestId('shortcut-said')).toContainText('produced one record to orders (key "from-key-p")');
  await expect(page.getByTestId('partition-choice')).toHaveAttribute('data-key', 'from-key-p');
  await expect(page.locator('[data-testid^="partition-orders-"] [data-key="from-key-p"]').first()).toBeVisible();
});

test('? lists every key in an accessible dialog that Escape closes', async ({ app, page }) => {
  await app.open();
  await page.locator('body').press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  for (const k of ['K', 'I', 'R', 'P', 'C', 'Space', '→', '?'])
    await expect(help.getByTestId(`shortcut-${k}`)).toBeVisible();
  await expect(help).toContainText('While a broker is isolated, I heals it instead');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});
