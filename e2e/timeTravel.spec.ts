import { zipSync } from 'fflate';
import { makeBatch, makeRecords } from '../src/engine/log/testSupport';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/**
 * Time travel (issue 12): the scrubber shows the cluster exactly as it was (a replay of the
 * scenario in the worker's memory, never the stored files), stepping to the next election finds
 * it, and acting in the past forks the run there.
 */

/** Sets the scrubber to `ms` (it moves in 100 ms steps) and waits for that moment to be shown. */
async function scrubTo(board: BoardPage, ms: number): Promise<void> {
  const scrubber = board.page.getByTestId('time-scrubber');
  await scrubber.fill(String(ms));
  await expect(scrubber).toHaveAttribute('data-now', String(ms));
  await expect(board.page.getByTestId('board-clock')).toHaveAttribute('data-now', String(ms));
}

test('scrubbing back to before a broker kill shows it alive and the old leader; forward and live show the new one', async ({
  app,
  page,
}) => {
  // Two replays of the run (the past, then the next election) on top of an election: more than
  // the default minute on a loaded 2-core machine.
  test.setTimeout(120_000);
  const board = await BoardPage.paused(app);
  await board.advance(2);
  const scrubber = page.getByTestId('time-scrubber');
  await expect(scrubber).toHaveAttribute('data-live', 'true');
  // Broker 2 leads orders-1 (start index 0); kill it and wait for the controller's election.
  expect(await board.leaderOf('orders', 1)).toBe(2);
  const killedAt = await board.now();
  await page.getByTestId('broker-kill-2').click();
  await expect(board.broker(2)).toHaveAttribute('data-state', 'down');
  await board.advanceUntil(async () => {
    const l = await board.leaderOf('orders', 1);
    return l !== null && l !== 2;
  }, 15);
  const newLeader = await board.leaderOf('orders', 1);
  const liveMs = await board.now();
  await expect(scrubber).toHaveAttribute('data-max', String(liveMs));

  // Back to before the kill: broker 2 is up, registered, and leads orders-1 again.
  const before = Math.floor((killedAt - 1) / 100) * 100;
  await scrubTo(board, before);
  await expect(scrubber).toHaveAttribute('data-live', 'false');
  await expect(board.broker(2)).toHaveAttribute('data-state', 'running');
  await expect(board.broker(2)).toHaveAttribute('data-alive', 'true');
  await expect(board.replica('orders', 1, 2)).toHaveAttribute('data-role', 'leader');
  // The live run waits: its end has not moved.
  await expect(scrubber).toHaveAttribute('data-max', String(liveMs));

  // Forward again, to the moment the controller elected: the next election after the one shown.
  await page.getByTestId('time-next-kind').selectOption('election');
  await page.getByTestId('time-next-event').click();
  await expect.poll(async () => Number(await scrubber.getAttribute('data-now'))).toBeGreaterThan(killedAt);
  await expect(board.replica('orders', 1, newLeader as number)).toHaveAttribute('data-role', 'leader');
  await expect(board.replica('orders', 1, 2)).toHaveAttribute('data-role', 'offline');

  // Back to live: where it was paused, the new leader.
  await page.getByTestId('time-live').click();
  await expect(scrubber).toHaveAttribute('data-live', 'true');
  await expect(scrubber).toHaveAttribute('data-now', String(liveMs));
  await expect(board.replica('orders', 1, newLeader as number)).toHaveAttribute('data-role', 'leader');
  await expect(board.broker(2)).toHaveAttribute('data-state', 'down');
});

test('acting in the past forks the run: the learner is told, and the future is gone', async ({ app, page }) => {
  const board = await BoardPage.paused(app);
  await board.advance(12);
  const scrubber = page.getByTestId('time-scrubber');
  const liveMs = await board.now();
  await scrubTo(board, 3000);
  await expect(board.broker(1)).toHaveAttribute('data-state', 'running');
  // Kill broker 1 at 3 s: the run forks there.
  await page.getByTestId('broker-kill-1').click();
  const notice = page.getByTestId('time-fork-notice');
  await expect(notice).toContainText('You changed the past at 00:00:03.000: the run forks here');
  await expect(notice).toHaveAttribute('data-at', '3000');
  await expect(scrubber).toHaveAttribute('data-live', 'true');
  // The scrubber's end moved back to the fork: the 9 s after it are gone.
  await expect(scrubber).toHaveAttribute('data-max', '3000');
  expect(liveMs).toBeGreaterThan(3000);
  await expect(board.broker(1)).toHaveAttribute('data-state', 'down');
  // The link names the forked run: its one action, the kill at 3 s.
  const linkActions = () =>
    page.evaluate(() => {
      const raw = new URLSearchParams(location.hash.slice(1)).get('scenario') ?? '';
      const json = atob(raw.replace(/-/g, '+').replace(/_/g, '/'));
      return (JSON.parse(json) as { actions: { at: number; action: { op: string } }[] }).actions.map(
        (a) => `${a.action.op}@${a.at}`,
      );
    });
  await expect.poll(linkActions).toEqual(['killBroker@3000']);
  await board.advance(1);
  await expect(scrubber).toHaveAttribute('data-max', String(4000));
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

test('a fork that would delete an imported topic asks first, naming it: kept, nothing changes; confirmed, the run forks', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app);
  await board.advance(2);
  const zip = zipSync({ 'okimp-0/00000000000000000000.log': makeBatch(makeRecords(4), { baseOffset: 0 }) });
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'ok.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
  await expect(page.getByTestId('import-message')).toHaveAttribute('data-ok', 'true');
  await board.advance(3);
  await scrubTo(board, 3900);
  // Kill broker 1 in the past: the replay of the scenario holds no import, so the page asks first.
  await page.getByTestId('broker-kill-1').click();
  const dialog = page.getByTestId('discard-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Fork the run here?');
  await expect(page.getByTestId('discard-topic-okimp')).toHaveAttribute('data-records', '4');
  await page.getByTestId('discard-cancel').click();
  await expect(page.getByTestId('time-fork-notice')).toHaveCount(0);
  await expect(page.getByTestId('time-scrubber')).toHaveAttribute('data-live', 'false');
  await expect(board.broker(1)).toHaveAttribute('data-state', 'running');

  await page.getByTestId('broker-kill-1').click();
  await page.getByTestId('discard-confirm').click();
  await expect(page.getByTestId('time-fork-notice')).toHaveAttribute('data-at', '3900');
  await expect(board.broker(1)).toHaveAttribute('data-state', 'down');
  await expect(page.getByTestId('topic-tab-okimp')).toHaveCount(0);
});
