import { encodeScenarioHash } from '../src/ui/scenarios/scenarioLink';
import type { ScenarioSpec } from '../src/engine/apps/types';
import { expect, test } from './fixtures';
import { GlassboxPage } from './fixtures';
import { BoardPage } from './boardPage';

/** The page's address for a scenario link. */
function linkTo(spec: ScenarioSpec, paused = false): string {
  return `/${encodeScenarioHash({ spec, paused })}`;
}

/** Opens a link in the page that holds the stored cluster: the hash alone does not reload, so reload. */
async function openLinkHere(board: BoardPage, path: string): Promise<void> {
  await board.page.goto(path);
  await board.page.reload();
  await expect(board.page.getByTestId('app-ready')).toBeAttached({ timeout: 20_000 });
  await expect(board.page.getByTestId('board')).toHaveAttribute('data-ready', 'true');
}

/** What the two pages must agree on: time, leaders, ISRs, offsets, groups and assignments. */
async function stateOf(board: BoardPage) {
  const page = board.page;
  const replicas = page.locator('[data-testid^="replica-orders-"]');
  const rs: string[] = [];
  for (const r of await replicas.all())
    rs.push(
      `${await r.getAttribute('data-testid')} ${await r.getAttribute('data-role')} ${await r.getAttribute('data-isr')} ${await r.getAttribute('data-leo')} ${await r.getAttribute('data-hw')}`,
    );
  await board.tab('groups');
  const gs: string[] = [];
  for (const g of ['billing', 'analytics'])
    gs.push(`${g} ${await board.group(g).getAttribute('data-state')} ${await board.generation(g)}`);
  const cs: string[] = [];
  for (const c of ['c1', 'c2', 'c3', 'c4', 'c5'])
    cs.push(
      `${c} ${await board.consumer(c).getAttribute('data-state')} ${await board.consumer(c).getAttribute('data-partitions')}`,
    );
  await board.tab('cluster');
  return { now: await board.now(), rs: rs.sort(), gs, cs };
}

test('a shared link replays the same run in a new page', async ({ app, page, browser }) => {
  // Two pages, and the link is replayed twice (in memory first, then onto the new page's store).
  test.setTimeout(180_000);
  const board = await BoardPage.paused(app);
  await board.advance(4);
  await page.getByTestId('broker-kill-2').click();
  await board.tab('groups');
  await page.getByTestId('consumer-move-c1').selectOption('analytics');
  await board.advance(12);
  await board.tab('cluster');
  await page.getByTestId('board-produce').click();
  await board.advance(3);
  const before = await stateOf(board);
  await board.tab('scenarios');
  const link = await page.getByTestId('scenario-link').inputValue();
  expect(link).toContain('#scenario=');
  await expect(page.getByTestId('action-log').locator('li')).toHaveCount(3);

  // A fresh browser context: its own IndexedDB, so nothing is shared but the link.
  const context = await browser.newContext();
  const other = new GlassboxPage(await context.newPage());
  const board2 = new BoardPage(other);
  await board2.open(link);
  await expect(other.page.getByTestId('time-play')).toHaveAttribute('aria-pressed', 'false');
  await expect(other.page.getByTestId('board-clock')).toHaveAttribute('data-now', String(before.now));
  expect(await stateOf(board2)).toEqual(before);
  expect(other.errors).toEqual([]);
  await context.close();
});

test('an invalid link gets a clear message and the default cluster', async ({ app, page }) => {
  const board = new BoardPage(app);
  await board.open('/#scenario=bm90LWpzb24');
  await expect(page.getByTestId('link-notice')).toContainText(
    "This link's scenario could not be read (it is not valid JSON)",
  );
  await expect(page.getByTestId('link-notice')).toContainText(
    'nothing was replaced: the default cluster is shown instead',
  );
  await expect(board.broker(1)).toBeVisible();
  await expect(board.replica('orders', 0, 1)).toBeVisible();
});

test('a link whose replay fails changes nothing: the stored topics and records survive, also after a reload', async ({
  app,
  page,
}) => {
  // Two reloads, each a cluster restart that recovers every replica log.
  test.setTimeout(180_000);
  const board = new BoardPage(app);
  await board.open();
  // A topic of the person's own, with a record in it: exactly what a wiped store would lose.
  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('events');
  await page.getByTestId('create-topic-partitions').fill('1');
  await page.getByTestId('create-topic-rf').fill('2');
  await page.getByTestId('create-topic-submit').click();
  await expect(page.getByTestId('topic-tab-events')).toBeVisible();
  await app.produce({ topic: 'events', key: 'user-2', value: 'kept' });
  const journey = page.getByTestId('record-journey');
  await expect(journey).toHaveAttribute('data-offset', '0');
  await page.getByTestId('topic-tab-events').click();
  // flush.ms has handed the record to IndexedDB once it is below the recovery point.
  await expect
    .poll(async () => Number(await app.partition('events', 0).getAttribute('data-recovery-point')))
    .toBeGreaterThan(0);

  // Broker 99 does not exist: the replay stops at action 2, before anything is replaced.
  const bad = linkTo(
    {
      seed: 1,
      preset: 'demo',
      actions: [
        { at: 500, action: { op: 'addGroup', group: 'audit', assignor: 'range' } },
        { at: 1000, action: { op: 'killBroker', broker: 99 } },
      ],
      untilMs: 2000,
    },
    true,
  );
  await openLinkHere(board, bad);
  const notice = page.getByTestId('link-notice');
  await expect(notice).toContainText("This link's scenario could not be replayed", { timeout: 20_000 });
  await expect(notice).toContainText('BROKER_NOT_AVAILABLE: action 2 of 2 (killBroker at 1.0 s) failed: no broker 99');
  await expect(notice).toContainText('nothing was replaced');
  await expect(page.getByTestId('discard-dialog')).toBeHidden();
  // The address names the stored cluster again, so the next reload does not try the link again.
  await expect(page).not.toHaveURL(new RegExp(bad.slice(bad.indexOf('#') + 1)));

  for (let reload = 0; reload < 2; reload++) {
    if (reload === 1) {
      await page.reload();
      await expect(page.getByTestId('app-ready')).toBeAttached({ timeout: 20_000 });
    }
    await page.getByTestId('topic-tab-events').click();
    await expect(app.partition('events', 0)).toHaveAttribute('data-leo', '1');
    await expect(app.partition('events', 0).locator('[data-key="user-2"]')).toHaveCount(1);
  }
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('a preset and a lesson ask before they discard the stored cluster: cancel keeps it, confirm replaces it', async ({
  app,
  page,
}) => {
  test.setTimeout(120_000);
  const board = new BoardPage(app);
  await board.open();
  const boardRoot = page.getByTestId('board');
  const dialog = page.getByTestId('discard-dialog');
  await app.produce({ topic: 'orders', key: 'user-1', value: 'mine' });
  await expect(page.getByTestId('record-journey')).toHaveAttribute('data-offset', /^\d+$/);

  // A preset: the question names what would be lost; cancel keeps everything.
  await board.tab('scenarios');
  await page.getByTestId('preset-empty4').click();
  await expect(dialog).toBeVisible();
  const orders = page.getByTestId('discard-topic-orders');
  await expect(orders).toContainText(/^orders \(6 partitions, [\d,]+ records?\)$/);
  expect(Number(await orders.getAttribute('data-records'))).toBeGreaterThan(0);
  await page.getByTestId('discard-cancel').click();
  await expect(dialog).toBeHidden();
  await expect(boardRoot).toHaveAttribute('data-preset', 'demo');
  await expect(page.getByTestId('topic-tab-orders')).toBeVisible();

  // A lesson: Escape is a "no" too; then confirmed, it replaces the cluster.
  await page.getByTestId('lesson-controller-failover').click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('lesson')).toHaveCount(0);
  await expect(boardRoot).toHaveAttribute('data-preset', 'demo');
  await page.getByTestId('lesson-controller-failover').click();
  await page.getByTestId('discard-confirm').click();
  await expect(boardRoot).toHaveAttribute('data-preset', 'elections');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-step', '0');
  await expect(page.getByTestId('topic-tab-orders')).toHaveCount(0);
  await expect(page.getByTestId('topic-tab-payments')).toBeVisible();
});

test('a link asks before it discards the stored cluster: declined, nothing changes and the notice can still open it', async ({
  app,
  page,
}) => {
  test.setTimeout(120_000);
  const board = new BoardPage(app);
  await board.open();
  const boardRoot = page.getByTestId('board');
  const dialog = page.getByTestId('discard-dialog');
  await app.produce({ topic: 'orders', key: 'user-1', value: 'mine' });
  await expect(page.getByTestId('record-journey')).toHaveAttribute('data-offset', /^\d+$/);

  const link = linkTo({ seed: 1, preset: 'racks4', actions: [], untilMs: 0 });
  await openLinkHere(board, link);
  // Asked once the stored cluster is recovered and the link replayed in memory.
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('discard-topic-orders')).toBeVisible();
  await page.getByTestId('discard-cancel').click();
  await expect(page.getByTestId('link-notice')).toContainText("This link's scenario was not opened");
  await expect(boardRoot).toHaveAttribute('data-preset', 'demo');
  await expect(page.getByTestId('topic-tab-orders')).toBeVisible();
  // The address names the stored cluster again: a reload does not ask again.
  await expect(page).not.toHaveURL(new RegExp(link.slice(link.indexOf('#') + 1)));
  await page.getByTestId('link-open').click();
  await expect(dialog).toBeVisible();
  await page.getByTestId('discard-confirm').click();
  await expect(boardRoot).toHaveAttribute('data-preset', 'racks4');
  await expect(page.getByTestId('topic-tab-orders')).toHaveCount(0);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('a link to a cluster without the old topics clears their partitions and the producer; Send to a new topic is acknowledged', async ({
  app,
  page,
}) => {
  const board = new BoardPage(app);
  // A first visit: the demo holds nothing of the person's yet, so the link opens without a question.
  await board.open(linkTo({ seed: 1, preset: 'empty4', actions: [], untilMs: 0 }));
  await expect(page.getByTestId('board')).toHaveAttribute('data-preset', 'empty4');
  await expect(page.locator('[data-testid^="partition-orders-"]')).toHaveCount(0);
  await expect(page.getByTestId('topic-tab-orders')).toHaveCount(0);
  await app.sideTab('producer');
  await expect(page.getByTestId('producer-topic').locator('option')).toHaveCount(0);
  await expect(page.getByTestId('producer-send')).toBeDisabled();

  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('events');
  await page.getByTestId('create-topic-partitions').fill('2');
  await page.getByTestId('create-topic-rf').fill('2');
  await page.getByTestId('create-topic-submit').click();
  await expect(page.getByTestId('topic-tab-events')).toBeVisible();
  await app.produce({ topic: 'events', key: 'k-1', value: 'first' });
  const journey = page.getByTestId('record-journey');
  await expect(journey).toHaveAttribute('data-offset', /^\d+$/);
  await expect(journey).not.toContainText('waiting for metadata');
});

/** The partitions of `topic` as the page shows them: LEO, HW and the records in each window (offset and key). */
async function partitionsOf(app: GlassboxPage, topic: string, partitions: number) {
  await app.page.getByTestId(`topic-tab-${topic}`).click();
  const out: string[] = [];
  for (let p = 0; p < partitions; p++) {
    const view = app.partition(topic, p);
    const cells: string[] = [];
    for (const c of await view.locator(`[data-testid^="record-${topic}-${p}-"]`).all())
      cells.push(`${await c.getAttribute('data-testid')}=${await c.getAttribute('data-key')}`);
    out.push(
      `${p} leo ${await view.getAttribute('data-leo')} hw ${await view.getAttribute('data-hw')} ${cells.join(',')}`,
    );
  }
  return out;
}

test('a link made after producing, Send N, a topic config and a producer setting replays to the same offsets and records', async ({
  app,
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const board = await BoardPage.paused(app);
  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('clicks');
  await page.getByTestId('create-topic-partitions').fill('3');
  await page.getByTestId('create-topic-rf').fill('2');
  await page.getByTestId('create-topic-submit').click();
  // Paused: the controller creates the topic once time passes.
  await board.advance(1);
  await expect(page.getByTestId('topic-tab-clicks')).toBeVisible();
  // A topic config change (retention.bytes far above what is written, so nothing is deleted).
  await page.getByTestId('topic-tab-clicks').click();
  const config = page.getByTestId('topic-config-clicks');
  await config.getByTestId('topic-retention-bytes').fill('1048576');
  await config.getByTestId('topic-config-apply').click();
  await board.advance(1);
  await expect(page.getByTestId('topic-config-clicks').getByTestId('topic-retention-bytes')).toHaveValue('1048576');
  // A producer setting (the client restarts with acks=1), one record, then a Send N of null keys.
  await app.sideTab('producer');
  await page.getByTestId('producer-acks').selectOption('1');
  await app.produce({ topic: 'clicks', key: 'alice', value: 'hello' });
  // Paused: the record is acknowledged once time passes.
  await board.advance(1);
  await expect(page.getByTestId('record-journey')).toHaveAttribute('data-offset', /^\d+$/);
  await page.getByTestId('producer-null-key').check();
  await page.getByTestId('producer-n').fill('120');
  await page.getByTestId('producer-rate').fill('0');
  await page.getByTestId('producer-send-n').click();
  await expect(page.getByTestId('job-progress').last()).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await board.pause();
  await board.advance(2);
  const before = await partitionsOf(app, 'clicks', 3);
  // Every record arrived and is committed: 1 + 120 across the three partitions.
  const leos = before.map((line) => Number(/leo (\d+)/.exec(line)?.[1]));
  expect(leos.reduce((a, b) => a + b, 0)).toBe(121);
  const now = await board.now();
  await board.tab('scenarios');
  const link = await page.getByTestId('scenario-link').inputValue();
  await expect(page.getByTestId('action-log')).toContainText('"op":"produceRecords"');

  // A fresh browser context: its own IndexedDB, so nothing is shared but the link.
  const context = await browser.newContext();
  const other = new GlassboxPage(await context.newPage());
  const board2 = new BoardPage(other);
  await board2.open(link);
  await expect(other.page.getByTestId('board-clock')).toHaveAttribute('data-now', String(now));
  await expect.poll(() => partitionsOf(other, 'clicks', 3), { timeout: 20_000 }).toEqual(before);
  await other.page.getByTestId('topic-tab-clicks').click();
  await expect(other.page.getByTestId('topic-config-clicks').getByTestId('topic-retention-bytes')).toHaveValue(
    '1048576',
  );
  expect(other.errors).toEqual([]);
  await context.close();
});

test('a 24-hour link asks first, saying how long, while the page keeps answering; its replay shows progress and can be cancelled', async ({
  app,
  page,
}) => {
  const day: ScenarioSpec = { seed: 3, preset: 'demo', actions: [], untilMs: 24 * 3600 * 1000 };
  await app.open(linkTo(day));
  const replay = page.getByTestId('discard-replay');
  await expect(replay).toBeVisible({ timeout: 20_000 });
  await expect(replay).toContainText('replays 24:00:00.000 of engine time, about');
  // Asking blocks nothing: the worker answers frames meanwhile.
  await app.frames(3);
  await page.getByTestId('discard-confirm').click();
  const job = page.getByTestId('job-progress');
  await expect(job).toHaveAttribute('data-state', 'running');
  await expect.poll(async () => Number(await job.getAttribute('data-done'))).toBeGreaterThan(0);
  await app.frames(3);
  await page.getByTestId('job-cancel').click();
  await expect(job).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('link-notice')).toContainText(
    "This link's replay was cancelled while it was checked in memory: nothing was replaced.",
  );
  await app.frames(3);
  // Still the cluster it was, at its own time, not the link's.
  expect(await page.getByTestId('board-clock').getAttribute('data-now').then(Number)).toBeLessThan(3_600_000);
});
