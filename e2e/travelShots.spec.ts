import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/**
 * The time-travel screenshots (docs/time-travel-*.png), made on demand: `SHOTS=1 npx playwright
 * test e2e/travelShots.spec.ts`. Broker 2 is killed and a new leader elected; the scrubber is then
 * set back to before the kill, so the board shows broker 2 alive and leading orders-1 again.
 */
test.skip(!process.env.SHOTS, 'screenshots only on demand (SHOTS=1)');

for (const vp of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`screenshot: the scrubber in the past at ${vp.width}x${vp.height}`, async ({ app, page }) => {
    await page.setViewportSize(vp);
    const board = new BoardPage(app);
    await board.open();
    await board.pause();
    await board.advance(2);
    const killedAt = await board.now();
    await page.getByTestId('broker-kill-2').click();
    await board.advanceUntil(async () => {
      const l = await board.leaderOf('orders', 1);
      return l !== null && l !== 2;
    }, 15);
    await board.advance(4);
    const before = Math.floor((killedAt - 1) / 100) * 100;
    const scrubber = page.getByTestId('time-scrubber');
    await scrubber.fill(String(before));
    await expect(scrubber).toHaveAttribute('data-now', String(before));
    await expect(board.replica('orders', 1, 2)).toHaveAttribute('data-role', 'leader');
    // Broker 2's card, alive and leading orders-1 again, under the scrubber (outside the scroller).
    await board.broker(2).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `docs/time-travel-${vp.width}.png` });
  });
}
