import { expect, test } from './fixtures';
import { PlanePage } from './planePage';

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
    const plane = new PlanePage(app);
    await plane.open();
    await plane.pause();
    await plane.advance(2);
    const killedAt = await plane.now();
    await page.getByTestId('broker-kill-2').click();
    await plane.advanceUntil(async () => {
      const l = await plane.leaderOf('orders', 1);
      return l !== null && l !== 2;
    }, 15);
    await plane.advance(4);
    const before = Math.floor((killedAt - 1) / 100) * 100;
    const scrubber = page.getByTestId('time-scrubber');
    await scrubber.fill(String(before));
    await expect(scrubber).toHaveAttribute('data-now', String(before));
    await expect(plane.replica('orders', 1, 2)).toHaveAttribute('data-role', 'leader');
    // Broker 2's card, alive and leading orders-1 again, under the scrubber (outside the scroller).
    await plane.broker(2).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `docs/time-travel-${vp.width}.png` });
  });
}
