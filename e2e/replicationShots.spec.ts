import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/**
 * The replication screenshots (docs/replication-*.png), made on demand: `SHOTS=1 npx playwright
 * test e2e/replicationShots.spec.ts`. One record produced at 0.25x to a topic with RF 3, caught
 * when a follower has it and the HW has not moved yet: the other Fetch response and the Fetch
 * that will move the HW are on their way.
 */
const FREEZE_MID_REPLICATION = `(() => {
  const glance = document.querySelector('[data-testid="glance"]');
  const observer = new MutationObserver((muts) => {
    for (const m of muts) {
      const cell = m.target;
      if (cell.getAttribute('data-role') === 'leader') continue;
      const row = cell.closest('tr');
      const lead = row && row.querySelector('[data-role="leader"]');
      if (!lead || Number(cell.getAttribute('data-shown-leo')) !== Number(lead.getAttribute('data-shown-leo'))) continue;
      if (Number(lead.getAttribute('data-shown-hw')) >= Number(lead.getAttribute('data-shown-leo'))) continue;
      const now = performance.now();
      const flying = [...document.querySelectorAll('.row-token')].some((t) => Number(t.getAttribute('data-lands-at')) > now + 50);
      if (!flying) continue;
      observer.disconnect();
      for (const a of document.getAnimations()) a.pause();
      window.setTimeout = () => 0;
      window.requestAnimationFrame = () => 0;
      window.__frozen = true;
      return;
    }
  });
  observer.observe(glance, { subtree: true, attributes: true, attributeFilter: ['data-shown-leo'] });
})()`;

test.skip(!process.env.SHOTS, 'screenshots only on demand (SHOTS=1)');

for (const vp of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`screenshot: a record replicating along its partition row at ${vp.width}x${vp.height}`, async ({
    app,
    page,
  }) => {
    await page.setViewportSize(vp);
    const board = new BoardPage(app);
    await board.open();
    await board.pause();
    await page.getByTestId('create-topic').click();
    await page.getByTestId('create-topic-name').fill('payments');
    await page.getByTestId('create-topic-partitions').fill('3');
    await page.getByTestId('create-topic-rf').fill('3');
    await page.getByTestId('create-topic-submit').click();
    await board.advanceUntil(async () => (await board.leaderOf('payments', 2)) !== null, 10);
    await page.getByTestId('topic-tab-payments').click();
    for (let i = 0; i < 3; i++) {
      await app.produce({ topic: 'payments', key: `k${i}`, value: 'earlier' });
      await board.advance(1);
    }
    await app.setSpeed('0.25');
    await page.getByTestId('time-play').click();
    // The moment to keep: a follower's cell has just drawn the new record (its Fetch response
    // landed) while the leader's HW still waits and tokens are on their way. Then the page is
    // frozen for the picture: its animations paused, no timer or frame runs on (screenshots only).
    await page.evaluate(FREEZE_MID_REPLICATION);
    for (let i = 0; i < 20 && !(await page.evaluate('window.__frozen === true')); i++) {
      await app.produce({ topic: 'payments', key: `user-${i}`, value: 'in flight' });
      // On a phone the side panel is a sheet over the board's lower half: put it away for the picture.
      if (vp.width < 760 && (await page.getByTestId('side-sheet-toggle').textContent())?.includes('Hide'))
        await page.getByTestId('side-sheet-toggle').click();
      await expect
        .poll(async () => page.evaluate('window.__frozen === true'), { timeout: 4000 })
        .toBe(true)
        .catch(() => undefined);
    }
    expect(await page.evaluate('window.__frozen === true')).toBe(true);
    // The rows themselves on a desktop; the whole first screen on a phone, where they fill the width.
    if (vp.width >= 760) await page.getByTestId('glance').screenshot({ path: `docs/replication-row-${vp.width}.png` });
    else {
      // Whatever the page scrolled to while producing, the picture is of the rows.
      await page.getByTestId('glance').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `docs/replication-${vp.width}.png` });
    }
  });
}
