import AxeBuilder from '@axe-core/playwright';
import { assignPartitions } from '../src/engine/clients/consumer/assignors/assignPartitions';
import type { AssignmentStrategy } from '../src/engine/clients/consumer/assignors/types';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

const PARTITIONS = { orders: 6 };

/** Reads a group's members (member id, name, partitions) from the chips. */
async function members(board: BoardPage, group: string) {
  const chips = board.group(group).locator('[data-testid^="consumer-"][data-state="running"]');
  const out: { name: string; memberId: string; partitions: string }[] = [];
  for (const chip of await chips.all()) {
    const id = (await chip.getAttribute('data-testid')) ?? '';
    if (!/^consumer-[^-]+$/.test(id)) continue;
    out.push({
      name: id.slice('consumer-'.length),
      memberId: (await chip.getAttribute('data-member-id')) ?? '',
      partitions: (await chip.getAttribute('data-partitions')) ?? '',
    });
  }
  return out;
}

/** Every member's partitions equal what Kafka's assignor computes for the group's members. */
async function expectAssignorResult(board: BoardPage, group: string, strategy: AssignmentStrategy) {
  const ms = await members(board, group);
  expect(ms.length).toBeGreaterThan(0);
  const expected = assignPartitions(
    strategy,
    ms.map((m) => ({ memberId: m.memberId, topics: ['orders'] })),
    PARTITIONS,
  );
  for (const m of ms) {
    const want = (expected[m.memberId] ?? []).map((tp) => `${tp.topic}-${tp.partition}`).join(',');
    expect(m.partitions, `${group}: ${m.name}`).toBe(want);
  }
}

async function stable(board: BoardPage, groups: Record<string, number>) {
  await board.advanceUntil(async () => {
    for (const [g, min] of Object.entries(groups)) {
      if ((await board.group(g).getAttribute('data-state')) !== 'Stable') return false;
      if ((await board.generation(g)) < min) return false;
      // Every running member holds the generation's assignment. The coordinator turns Stable when
      // the leader's SyncGroup arrives; a follower that revoked its partitions (eager protocol) may
      // still be waiting for its own SyncGroup answer. With no more members than partitions, every
      // member gets at least one, so an empty one is still waiting.
      const ms = await members(board, g);
      for (const m of ms) {
        if (m.memberId === '') return false;
        if (ms.length <= PARTITIONS.orders && m.partitions === '') return false;
      }
    }
    return true;
  }, 40);
}

test('drag a consumer to another group with the mouse, then back with the keyboard: both groups rebalance to what the assignors compute', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app, 'groups');
  await stable(board, { billing: 1, analytics: 1 });
  await expectAssignorResult(board, 'billing', 'range');
  await expectAssignorResult(board, 'analytics', 'roundrobin');
  const before = { billing: await board.generation('billing'), analytics: await board.generation('analytics') };

  // Mouse: drag c1 from billing into analytics.
  const handle = page.getByTestId('consumer-handle-c1');
  const target = board.group('analytics');
  // The cards have finished drawing the first rebalance's phases (their height changes with each
  // phase): a card moving under the pointer mid-drag would drop on nothing.
  for (const g of ['billing', 'analytics'])
    await expect(page.getByTestId(`rebalance-phase-${g}`)).toHaveAttribute('data-phase', 'stable');
  // The mouse reaches only what is on screen: scroll the cards' tops into view, so the drop point
  // near the target's top is not under the top bar and the chip below is on screen too. On a loaded
  // machine dnd-kit's pointer handling can trail the synthetic moves (or the board move under
  // them), and a release then drops on nothing: the drag is measured and made again until the
  // chip lands in the group.
  await expect(async () => {
    await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const from = await handle.boundingBox();
    const to = await target.boundingBox();
    if (!from || !to) throw new Error('no layout');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 5, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + 40, { steps: 10 });
    // Drop only once dnd-kit has seen the pointer over the group.
    await expect(target)
      .toHaveClass(/drop-over/, { timeout: 3_000 })
      .finally(() => page.mouse.up());
    await expect(board.group('analytics').getByTestId('consumer-c1')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(board.group('analytics').getByTestId('consumer-c1')).toBeVisible();
  await stable(board, { billing: before.billing + 1, analytics: before.analytics + 1 });
  expect((await members(board, 'billing')).map((m) => m.name).sort()).toEqual(['c2', 'c3']);
  expect((await members(board, 'analytics')).map((m) => m.name).sort()).toEqual(['c1', 'c4', 'c5']);
  await expectAssignorResult(board, 'billing', 'range');
  await expectAssignorResult(board, 'analytics', 'roundrobin');
  const mid = { billing: await board.generation('billing'), analytics: await board.generation('analytics') };

  // Keyboard: pick c1 up with Space, arrow to the billing group, drop with Space.
  await page.getByTestId('consumer-handle-c1').focus();
  await page.keyboard.press('Space');
  // The keyboard sensor has picked the chip up (on a loaded machine this takes a frame or two).
  await expect(board.consumer('c1')).toHaveClass(/dragging/);
  await page.keyboard.press('ArrowRight');
  await expect(board.group('billing')).toHaveClass(/drop-over/);
  await page.keyboard.press('Space');
  await expect(board.group('billing').getByTestId('consumer-c1')).toBeVisible();
  await stable(board, { billing: mid.billing + 1, analytics: mid.analytics + 1 });
  expect((await members(board, 'billing')).map((m) => m.name).sort()).toEqual(['c1', 'c2', 'c3']);
  await expectAssignorResult(board, 'billing', 'range');
  await expectAssignorResult(board, 'analytics', 'roundrobin');
  // The generations timeline has a column per generation and the story tells the rebalance.
  await page.getByTestId('group-select-billing').click();
  await expect(page.getByTestId(`generation-billing-${mid.billing + 1}`)).toBeAttached();
  await expect(page.getByTestId('rebalance-story-billing')).toContainText('JoinGroup');
  await expect(page.getByTestId('rebalance-story-billing')).toContainText('SyncGroup');
});

test('changing the assignor rebalances the group with it; a crashed consumer is removed after session.timeout.ms', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app, 'groups');
  await stable(board, { billing: 1, analytics: 1 });
  const g = await board.generation('billing');
  await page.getByTestId('group-assignor-billing').selectOption('roundrobin');
  await stable(board, { billing: g + 1 });
  await expectAssignorResult(board, 'billing', 'roundrobin');

  // c4 crashes: no LeaveGroup; the analytics coordinator waits session.timeout.ms (10 s).
  const a = await board.generation('analytics');
  await page.getByTestId('consumer-crash-c4').click();
  await expect(board.consumer('c4')).toHaveAttribute('data-state', 'crashed');
  await board.advance(5);
  expect(await board.generation('analytics')).toBe(a);
  await stable(board, { analytics: a + 1 });
  expect((await members(board, 'analytics')).map((m) => m.name)).toEqual(['c5']);
  await expect(board.consumer('c5')).toHaveAttribute(
    'data-partitions',
    'orders-0,orders-1,orders-2,orders-3,orders-4,orders-5',
  );
  // kafka-consumer-groups --describe lists every partition of both groups.
  await expect(page.getByTestId('describe-analytics-orders-5')).toBeVisible();
});

/** The crash card's per-partition numbers; their sums equal the card's predicted counts. */
async function crashRows(page: import('@playwright/test').Page, group: string, partitions: string[]) {
  const rows: Record<string, { committed: number; processedTo: number; position: number }> = {};
  for (const tp of partitions) {
    const row = page.getByTestId(`crash-partition-${group}-${tp}`);
    rows[tp] = {
      committed: Number(await row.getAttribute('data-committed')),
      processedTo: Number(await row.getAttribute('data-processed-to')),
      position: Number(await row.getAttribute('data-position')),
    };
  }
  return rows;
}

test('a consumer crashed mid-stream: the records it processed but did not commit are counted as redelivered, then seen processed again (seed 000 case 1)', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app, 'groups');
  await stable(board, { billing: 1, analytics: 1 });
  await board.advance(3);
  // The engine's numbers just before the crash: c4's positions (marks on the partition logs)
  // and the group's committed offsets (CURRENT-OFFSET in the describe table).
  const c4 = (await board.consumer('c4').getAttribute('data-partitions'))?.split(',') ?? [];
  expect(c4.length).toBeGreaterThan(0);
  const before: Record<string, [number, number]> = {};
  const read = async () => {
    let uncommitted = 0;
    for (const tp of c4) {
      const p = tp.slice('orders-'.length);
      const position = Number(await page.getByTestId(`position-c4-orders-${p}`).getAttribute('data-position'));
      const committedAttr = await page
        .getByTestId(`describe-analytics-orders-${p}`)
        .getAttribute('data-current-offset');
      before[tp] = [committedAttr ? Number(committedAttr) : 0, position];
      uncommitted += position - (committedAttr ? Number(committedAttr) : 0);
    }
    // Records returned but still in hand are not processed yet: they do not come twice.
    return uncommitted - Number(await board.consumer('c4').getAttribute('data-in-hand'));
  };
  // Crash at a moment when c4 has processed records its last auto commit did not cover (the
  // trickle brings c4 about two records a second; an auto commit every second may just have
  // covered them all).
  await board.advanceUntil(async () => (await read()) > 0, 15);
  await page.getByTestId('consumer-crash-c4').click();
  await expect(board.consumer('c4')).toHaveAttribute('data-state', 'crashed');
  const card = page.getByTestId('group-redelivered-analytics');
  await expect(card).toHaveAttribute('data-consumer', 'c4');
  await expect(card).toHaveAttribute('data-commit-mode', 'auto');
  const rows = await crashRows(page, 'analytics', c4);
  let expected = 0;
  for (const [tp, [committed, position]] of Object.entries(before)) {
    const r = rows[tp];
    expect(r?.committed, tp).toBe(committed);
    expect(r?.position, tp).toBe(position);
    // Auto commit commits what earlier polls returned: never beyond what was processed.
    expect(r?.processedTo ?? 0, tp).toBeGreaterThanOrEqual(committed);
    expected += (r?.processedTo ?? 0) - committed;
  }
  expect(expected).toBeGreaterThan(0);
  test.info().annotations.push({ type: 'redelivered', description: String(expected) });
  await expect(card).toHaveAttribute('data-count', String(expected));
  await expect(card).toHaveAttribute('data-skipped', '0');
  await expect(card).toContainText('case 1');
  // session.timeout.ms later c5 owns c4's partitions and processes those records a second time.
  await board.advanceUntil(async () => (await card.getAttribute('data-observed-redelivered')) === String(expected), 40);
  await expect(card).toHaveAttribute('data-observed-lost', '0');
  await expect(page.getByTestId('group-observed-redelivered-analytics')).toContainText(`${expected} processed again`);
});

test('commit before processing: a consumer crashed with a batch half processed loses the rest of it, counted after the rebalance (seed 000 case 2)', async ({
  app,
  page,
}) => {
  // Stepping the clock 10 ms at a time takes a while on a loaded machine.
  test.setTimeout(150_000);
  const board = await BoardPage.paused(app, 'groups');
  await stable(board, { billing: 1, analytics: 1 });
  const generation = await board.generation('analytics');
  await page.getByTestId('group-commit-mode-analytics').selectOption('before-processing');
  await expect(page.getByTestId('group-commit-mode-analytics')).toHaveValue('before-processing');
  // The applications restart with the new commit mode: the group rebalances.
  await stable(board, { billing: 1, analytics: generation + 1 });
  await board.tab('cluster');
  await page.getByTestId('board-produce').click();
  await page.getByTestId('board-produce').click();
  await expect(page.getByTestId('board-produced')).toHaveAttribute('data-acked', /^[1-9]/);
  await board.tab('groups');
  // Step the clock 10 ms at a time until c4's application holds a batch of a few records that
  // it has already committed (CURRENT-OFFSET = its position on every partition) but not processed.
  const c4 = board.consumer('c4');
  const parts = (await c4.getAttribute('data-partitions'))?.split(',') ?? [];
  expect(parts.length).toBeGreaterThan(0);
  const committedAhead = async () => {
    if (Number(await c4.getAttribute('data-in-hand')) < 3) return false;
    for (const tp of parts) {
      const p = tp.slice('orders-'.length);
      const position = await page.getByTestId(`position-c4-orders-${p}`).getAttribute('data-position');
      const committed = await page.getByTestId(`describe-analytics-orders-${p}`).getAttribute('data-current-offset');
      if (position !== committed) return false;
    }
    return true;
  };
  let ready = false;
  for (let i = 0; i < 400 && !ready; i++) {
    const before = await board.now();
    await page.getByTestId('time-step').click();
    // Read the board only once a view from after the step has arrived (the clock is paused, so
    // what it shows is then exactly the engine's state when the crash is clicked).
    await expect.poll(() => board.now()).toBeGreaterThan(before);
    ready = await committedAhead();
  }
  expect(ready, 'c4 never held a committed, unprocessed batch').toBe(true);
  await page.getByTestId('consumer-crash-c4').click();
  await expect(c4).toHaveAttribute('data-state', 'crashed');
  const card = page.getByTestId('group-redelivered-analytics');
  await expect(card).toHaveAttribute('data-commit-mode', 'before-processing');
  await expect(card).toHaveAttribute('data-count', '0');
  const rows = await crashRows(page, 'analytics', parts);
  let lost = 0;
  for (const [tp, r] of Object.entries(rows)) {
    expect(r.committed, tp).toBe(r.position);
    lost += r.committed - r.processedTo;
  }
  expect(lost).toBeGreaterThan(0);
  test.info().annotations.push({ type: 'lost', description: String(lost) });
  await expect(card).toHaveAttribute('data-skipped', String(lost));
  await expect(card).toContainText('case 2');
  // Nothing is lost yet: the records are only lost once c5 has taken over past them.
  await expect(card).toHaveAttribute('data-observed-lost', '0');
  await board.advanceUntil(async () => (await card.getAttribute('data-observed-lost')) === String(lost), 40);
  await expect(card).toHaveAttribute('data-observed-redelivered', '0');
  await expect(page.getByTestId('group-observed-lost-analytics')).toContainText(`${lost} never processed`);
  await expect(page.getByTestId('group-delivery-analytics')).toHaveAttribute('data-lost', String(lost));
});

test('a consumer dragged out of every group stops; added back, it joins again', async ({ app, page }) => {
  const board = await BoardPage.paused(app, 'groups');
  await stable(board, { billing: 1, analytics: 1 });
  await page.getByTestId('consumer-move-c3').selectOption('__stopped');
  await expect(page.getByTestId('group-stopped').getByTestId('consumer-c3')).toHaveAttribute('data-state', 'stopped');
  await page.getByTestId('consumer-move-c3').selectOption('analytics');
  await expect(board.group('analytics').getByTestId('consumer-c3')).toBeVisible();
  const g = await board.generation('analytics');
  await stable(board, { analytics: g + 1 });
  expect((await members(board, 'analytics')).map((m) => m.name).sort()).toEqual(['c3', 'c4', 'c5']);
  await expectAssignorResult(board, 'analytics', 'roundrobin');
  const results = await new AxeBuilder({ page }).include('[data-testid="board"]').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('the legacy ZooKeeper consumer (seed 002): members register under /consumers and rebalance themselves', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app, 'groups');
  await stable(board, { analytics: 1 });
  await page.getByTestId('group-protocol-analytics').selectOption('zookeeper');
  await expect(board.group('analytics')).toHaveAttribute('data-state', 'ZooKeeper');
  await board.advanceUntil(
    async () =>
      (await board.consumer('c4').getAttribute('data-partitions')) !== '' &&
      (await board.consumer('c5').getAttribute('data-partitions')) !== '',
    20,
  );
  const owned = [
    ...((await board.consumer('c4').getAttribute('data-partitions')) ?? '').split(','),
    ...((await board.consumer('c5').getAttribute('data-partitions')) ?? '').split(','),
  ].sort();
  expect(owned).toEqual(['orders-0', 'orders-1', 'orders-2', 'orders-3', 'orders-4', 'orders-5']);
  // The card draws what the legacy consumer has: its znodes, no coordinator, JoinGroup or generation.
  const card = board.group('analytics');
  await expect(page.getByTestId('rebalance-phase-analytics')).toHaveCount(0);
  await expect(card).not.toContainText(/JoinGroup|SyncGroup|generation|No coordinator yet/);
  await expect(page.getByTestId('zk-ids-analytics')).toContainText('c4, c5');
  await expect(page.getByTestId('zk-owners-analytics')).toContainText('orders/0 → ');
  await expect(page.getByTestId('zk-rebalances-analytics')).toContainText(/c4 ×\d/);
  await board.tab('cluster');
  await expect(page.getByTestId('znode-/consumers/analytics/ids/c4')).toHaveAttribute('data-ephemeral', 'true');
});

// The README's screenshots (docs/coordinator-moving-*.png, docs/zookeeper-group-*.png), on demand:
// `SHOTS=1 npx playwright test e2e/groups.spec.ts -g screenshot`.
for (const vp of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`screenshot: a killed coordinator, and the legacy ZooKeeper group, at ${vp.width}x${vp.height}`, async ({
    app,
    page,
  }) => {
    test.skip(!process.env.SHOTS, 'screenshots only on demand (SHOTS=1)');
    await page.setViewportSize(vp);
    const board = new BoardPage(app);
    await board.open();
    await board.pause();
    await board.tab('groups');
    await stable(board, { analytics: 1, billing: 1 });
    const coordinator = /broker (\d+)/.exec(
      (await page.getByTestId('group-coordinator-billing').textContent()) ?? '',
    )?.[1];
    await board.tab('cluster');
    await page.getByTestId(`broker-kill-${coordinator}`).click();
    await board.tab('groups');
    await board.advance(1);
    await expect(board.group('billing')).toHaveAttribute('data-state', 'COORDINATOR_NOT_AVAILABLE');
    await page.getByTestId('group-coordinator-billing').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `docs/coordinator-moving-${vp.width}.png` });
    await page.getByTestId('group-protocol-analytics').selectOption('zookeeper');
    await board.advanceUntil(
      async () => /orders\/0 → c\d/.test((await page.getByTestId('zk-owners-analytics').textContent()) ?? ''),
      30,
    );
    await page.getByTestId('zk-group-analytics').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `docs/zookeeper-group-${vp.width}.png` });
  });
}
