import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/**
 * Replication in lock-step on the partition row (issue 13): one record produced at 0.25x to a
 * topic with RF 3. The leader's LEO moves on screen when the Produce token lands on its cell,
 * each follower's LEO when its Fetch response lands on it, and the HW last, once the follower's
 * Fetch that moved it has landed on the leader. Read from data attributes and the tokens' own
 * landing times, recorded in the page as they change (a MutationObserver), never from pixels.
 */

type Change = {
  t: number;
  kind: 'shown' | 'token' | 'cell';
  testid: string;
  attr?: string;
  value?: string;
  landsAt?: number;
  api?: string;
  from?: string;
  to?: string;
  changes?: string;
};

// Records, with performance.now(), every change of a cell's drawn LEO/HW and every row token added.
const RECORD = `(() => {
  const log = [];
  window.__lockstep = log;
  const glance = document.querySelector('[data-testid="glance"]');
  const observer = new MutationObserver((muts) => {
    const t = performance.now();
    for (const m of muts) {
      if (m.type === 'attributes') {
        const el = m.target;
        log.push({ t, kind: 'shown', testid: el.getAttribute('data-testid'), attr: m.attributeName, value: el.getAttribute(m.attributeName) });
      } else for (const n of m.addedNodes) {
        if (!(n instanceof HTMLElement) || !n.classList.contains('row-token')) continue;
        log.push({ t, kind: 'token', testid: n.getAttribute('data-testid'), landsAt: Number(n.getAttribute('data-lands-at')),
          api: n.getAttribute('data-api'), from: n.getAttribute('data-from'), to: n.getAttribute('data-to'), changes: n.getAttribute('data-changes') });
      }
    }
  });
  observer.observe(glance, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-shown-leo', 'data-shown-hw'] });
  // The partition's log: when the record's cell appears.
  const cellSeen = new MutationObserver(() => {
    if (!log.some((c) => c.kind === 'cell') && document.querySelector('[data-testid="record-lockstep-0-0"]'))
      log.push({ t: performance.now(), kind: 'cell', testid: 'record-lockstep-0-0' });
  });
  cellSeen.observe(document.body, { subtree: true, childList: true });
})()`;

test('one record at 0.25x, RF 3: leader LEO, then the followers’ LEO, then the HW, each when its token lands', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app);
  // Four brokers and nothing else running (no demo producer, no consumers): the record's
  // messages are the only replication traffic, so none is crowded out of the frames' messages.
  await board.tab('scenarios');
  await page.getByTestId('preset-empty4').click();
  await expect(page.getByTestId('board')).toHaveAttribute('data-preset', 'empty4');
  await board.tab('cluster');
  await board.pause();
  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('lockstep');
  await page.getByTestId('create-topic-partitions').fill('1');
  await page.getByTestId('create-topic-rf').fill('3');
  await page.getByTestId('create-topic-submit').click();
  await board.advanceUntil(async () => (await board.leaderOf('lockstep', 0)) !== null, 10);
  const leader = (await board.leaderOf('lockstep', 0)) as number;
  await page.getByTestId('topic-tab-lockstep').click();
  const cells = page.locator('[data-testid^="glance-replica-lockstep-0-"]');
  await expect(cells).toHaveCount(3);
  const cell = (b: number) => page.getByTestId(`glance-replica-lockstep-0-${b}`);
  const followers = (await cells.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? '')))
    .map((id) => Number(id.split('-').pop()))
    .filter((b) => b !== leader);
  expect(followers).toHaveLength(2);
  await expect(cell(leader)).toHaveAttribute('data-shown-hw', '0');

  await page.evaluate(RECORD);
  await page.getByTestId('time-speed').selectOption('0.25');
  await page.getByTestId('time-play').click();
  await app.produce({ topic: 'lockstep', key: 'k', value: 'in step' });
  // The engine has the record everywhere long before the HW is drawn: wait on what is drawn.
  await expect(cell(leader)).toHaveAttribute('data-shown-hw', '1', { timeout: 20_000 });
  for (const f of followers) await expect(cell(f)).toHaveAttribute('data-shown-leo', '1');

  const log = (await page.evaluate('window.__lockstep')) as Change[];
  const when = (b: number, attr: string) =>
    log.find(
      (c) => c.kind === 'shown' && c.testid === `glance-replica-lockstep-0-${b}` && c.attr === attr && c.value === '1',
    )?.t ?? Number.NaN;
  const leaderLeo = when(leader, 'data-shown-leo');
  const followerLeo = followers.map((f) => when(f, 'data-shown-leo'));
  const hw = when(leader, 'data-shown-hw');
  // The order on screen: the leader's LEO, then each follower's, then the HW.
  for (const t of followerLeo) expect(t).toBeGreaterThan(leaderLeo);
  expect(hw).toBeGreaterThan(Math.max(...followerLeo));

  // Each change waited for its token: the Produce on the leader's cell, a Fetch response on each
  // follower's, and the follower's Fetch request that moved the HW on the leader's.
  const tokens = log.filter((c) => c.kind === 'token');
  const produce = tokens.find(
    (c) => c.api === 'Produce' && c.to === String(leader) && c.changes?.includes(`leo:${leader}:1`),
  );
  expect(produce, 'a Produce token to the leader').toBeDefined();
  expect(leaderLeo).toBeGreaterThanOrEqual((produce?.landsAt ?? Number.POSITIVE_INFINITY) - 1);
  // The record's cell in the partition's log appears with the leader's LEO, not before.
  const cellAt = log.find((c) => c.kind === 'cell')?.t ?? Number.NaN;
  expect(cellAt).toBeGreaterThanOrEqual((produce?.landsAt ?? Number.POSITIVE_INFINITY) - 1);
  for (const [i, f] of followers.entries()) {
    const response = tokens.find((c) => c.api === 'Fetch' && c.to === String(f) && c.changes?.includes(`leo:${f}:1`));
    expect(response, `a Fetch response to broker ${f}`).toBeDefined();
    expect(response?.from).toBe(String(leader));
    expect(followerLeo[i]).toBeGreaterThanOrEqual((response?.landsAt ?? Number.POSITIVE_INFINITY) - 1);
  }
  const fetch = tokens.find(
    (c) => c.api === 'Fetch' && c.to === String(leader) && c.changes?.includes(`hw:${leader}:1`),
  );
  expect(fetch, 'the follower Fetch that moved the HW').toBeDefined();
  expect(followers.map(String)).toContain(fetch?.from);
  expect(fetch?.t).toBeLessThan(hw);
  expect(hw).toBeGreaterThanOrEqual((fetch?.landsAt ?? Number.POSITIVE_INFINITY) - 1);
  // The engine's own values were there all along: data-leo / data-hw are not held.
  await expect(cell(leader)).toHaveAttribute('data-hw', '1');
});

test('paused, the cells show the engine’s state at once (nothing is held without tokens in step)', async ({
  app,
  page,
}) => {
  const board = new BoardPage(app);
  await board.open();
  await page.getByTestId('time-speed').selectOption('0.25');
  await board.pause();
  // The demo's orders: each cell draws what the engine has while the clock stands still.
  const cells = page.locator('[data-testid^="glance-replica-orders-"]');
  await expect(cells.first()).toBeVisible();
  await expect
    .poll(async () =>
      cells.evaluateAll((els) =>
        els.every(
          (e) =>
            e.getAttribute('data-shown-leo') === e.getAttribute('data-leo') &&
            e.getAttribute('data-shown-hw') === e.getAttribute('data-hw'),
        ),
      ),
    )
    .toBe(true);
  await expect(page.locator('.row-token')).toHaveCount(0);
});
