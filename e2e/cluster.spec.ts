import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

test('brokers by rack, the controller with its epoch, replicas with roles and ISR', async ({ app, page }) => {
  const board = await BoardPage.paused(app);
  for (const id of [1, 2, 3]) await expect(board.broker(id)).toHaveAttribute('data-alive', 'true');
  await expect(board.broker(1)).toHaveAttribute('data-controller', 'true');
  await expect(page.getByTestId('controller-badge-1')).toContainText('epoch 1');
  await expect(page.getByRole('region', { name: 'Rack rack-a' }).getByTestId('broker-3')).toBeVisible();
  // orders-0: leader on broker 1 (start index 0), both followers in sync.
  await expect(board.replica('orders', 0, 1)).toHaveAttribute('data-role', 'leader');
  await expect(board.replica('orders', 0, 2)).toHaveAttribute('data-role', 'follower');
  await expect(board.replica('orders', 0, 2)).toHaveAttribute('data-isr', 'true');
  // The coordination store shows the brokers' ephemeral registrations and the controller.
  await expect(page.getByTestId('znode-/brokers/ids/1')).toHaveAttribute('data-ephemeral', 'true');
  await expect(page.getByTestId('znode-/controller')).toContainText('"brokerid":1');
  await expect(page.getByTestId('znode-/controller_epoch')).toContainText('1');
});

test('kill the leader: a new leader from the ISR, groups keep their generation, acks=all produce goes on; restart: back in the ISR', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app, 'groups');
  const stable = async () =>
    (await board.group('billing').getAttribute('data-state')) === 'Stable' &&
    (await board.group('analytics').getAttribute('data-state')) === 'Stable';
  await board.advanceUntil(stable, 20);
  const gens = { billing: await board.generation('billing'), analytics: await board.generation('analytics') };
  await board.tab('cluster');
  // Broker 2 leads orders-1 (rack-alternated brokers 1, 2, 3 and start index 0).
  expect(await board.leaderOf('orders', 1)).toBe(2);
  const isrBefore = ['1', '3'];
  await page.getByTestId('broker-kill-2').click();
  await expect(board.broker(2)).toHaveAttribute('data-state', 'down');
  // Nothing moves until ZooKeeper expires broker 2's session (6 s); then the controller elects.
  await board.advanceUntil(async () => {
    const l = await board.leaderOf('orders', 1);
    return l !== null && l !== 2;
  }, 15);
  const newLeader = await board.leaderOf('orders', 1);
  expect(isrBefore).toContain(String(newLeader));
  await expect(board.replica('orders', 1, 2)).toHaveAttribute('data-role', 'offline');
  await expect(page.getByTestId('election-story')).toContainText('expired the session of broker-2');
  await expect(page.getByTestId('election-story')).toContainText(`chose broker ${newLeader}, the first live member`);
  // Produce with acks=all still succeeds (min.insync.replicas=2, two replicas left in the ISR).
  const acked = Number(await page.getByTestId('board-produced').getAttribute('data-acked'));
  await page.getByTestId('board-produce').click();
  await board.advanceUntil(
    async () => Number(await page.getByTestId('board-produced').getAttribute('data-acked')) >= acked + 20,
    10,
  );
  await expect(page.getByTestId('board-produced')).toHaveAttribute('data-failed', '0');
  // The groups' generations did not change: only partition leadership moved.
  await board.tab('groups');
  expect(await board.generation('billing')).toBe(gens.billing);
  expect(await board.generation('analytics')).toBe(gens.analytics);
  await board.tab('cluster');
  // Restart: broker 2 registers again, catches up and rejoins the ISR.
  await page.getByTestId('broker-restart-2').click();
  await board.advanceUntil(async () => (await board.replica('orders', 1, 2).getAttribute('data-isr')) === 'true', 30);
  await expect(board.replica('orders', 1, 2)).toHaveAttribute('data-role', 'follower');
  await expect(board.broker(2)).toHaveAttribute('data-alive', 'true');
  // A preferred-leader election gives orders-1 back to its first replica, broker 2.
  await page.getByTestId('preferred-election').click();
  await board.advanceUntil(async () => (await board.leaderOf('orders', 1)) === 2, 10);
  await expect(page.getByTestId('election-story')).toContainText('Preferred-leader election');
});

test('a replica moved to a new broker: the reassignment adds, catches up, then drops the old replica', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app);
  await page.getByTestId('add-broker').click();
  await board.advanceUntil(async () => (await board.broker(4).getAttribute('data-alive')) === 'true', 10);
  // The keyboard way: the replica's "move" menu (dragging it onto broker 4 sends the same reassignment).
  await page.getByTestId('replica-move-orders-0-3').selectOption('4');
  await board.advanceUntil(async () => (await board.replica('orders', 0, 3).count()) === 0, 30);
  await expect(board.replica('orders', 0, 4)).toHaveAttribute('data-isr', 'true');
  await expect(page.getByTestId('election-story')).toContainText(
    'Reassignment of orders-0 completed: [1, 2, 3] → [1, 2, 4]',
  );
});

type Box = { x: number; y: number; w: number; h: number };

test('replication is visible: follower fetches travel between broker cards, replayed slowed down and saying by how much', async ({
  app,
  page,
}) => {
  const board = new BoardPage(app);
  await board.open();
  // The board is where the tokens are drawn: off screen, its section skips rendering
  // (content-visibility: auto) and the browser withholds its resize observations, so a token's
  // place is only defined once the board is on screen, as a learner watching it has it.
  await board.broker(1).scrollIntoViewIfNeeded();
  // The clock runs (the play button is on at start); a follower fetch token appears.
  const tokens = page.locator('[data-testid^="message-fetch-"]');
  await expect(tokens.first()).toBeAttached({ timeout: 15_000 });
  // Tokens come and go while the clock runs: read one token and its two cards in one go.
  // (A string, so the spec needs no DOM types.)
  // A token can leave between the check above and this read: read again until one is caught.
  const readToken = () =>
    page.evaluate(`(() => {
    const el = document.querySelector('[data-testid^="message-fetch-"]');
    if (!el) return null;
    const [from, to] = (el.getAttribute('data-testid') || '').slice('message-fetch-'.length).split('-');
    const rect = (e) => {
      const r = e && e.getBoundingClientRect();
      return r ? { x: r.x, y: r.y, w: r.width, h: r.height } : null;
    };
    return {
      from: Number(from),
      to: Number(to),
      sent: Number(el.getAttribute('data-sent-at')),
      arrive: Number(el.getAttribute('data-arrive-at')),
      slowed: Number(el.getAttribute('data-slowed')),
      token: rect(el),
      a: rect(document.querySelector('[data-testid="broker-' + from + '"]')),
      b: rect(document.querySelector('[data-testid="broker-' + to + '"]')),
    };
  })()`);
  type Seen = {
    from: number;
    to: number;
    sent: number;
    arrive: number;
    slowed: number;
    token: Box | null;
    a: Box | null;
    b: Box | null;
  };
  let caught: Seen | null = null;
  await expect
    .poll(
      async () => {
        caught = (await readToken()) as Seen | null;
        return caught !== null;
      },
      { timeout: 15_000, intervals: [20, 50, 100] },
    )
    .toBe(true);
  // (The assignment happens inside the callback, which control-flow narrowing does not see.)
  const seen = caught as Seen | null;
  if (!seen?.token || !seen.a || !seen.b) throw new Error('no token or broker card laid out');
  expect(seen.from).not.toBe(seen.to);
  // The engine's times, not stretched: a hop of a millisecond or so.
  expect(seen.arrive).toBeGreaterThan(seen.sent);
  expect(seen.arrive - seen.sent).toBeLessThan(50);
  // Drawn over 600 ms of wall time at 1x: the token and the legend say how much slower that is.
  expect(seen.slowed).toBe(Math.round(600 / (seen.arrive - seen.sent)));
  await expect(page.getByTestId('message-legend')).toContainText('slowed down');
  // Placed on the segment between the two broker cards' centres (RaftScope-style), by a transform.
  const { token, a, b } = seen;
  const cx = token.x + token.w / 2;
  const cy = token.y + token.h / 2;
  // A request is drawn just left of that line and its response just right (so a pair never hides
  // the other): within one token width of the box the two cards span.
  expect(cx).toBeGreaterThanOrEqual(Math.min(a.x, b.x) - token.w);
  expect(cx).toBeLessThanOrEqual(Math.max(a.x + a.w, b.x + b.w) + token.w);
  expect(cy).toBeGreaterThanOrEqual(Math.min(a.y, b.y) - token.h);
  expect(cy).toBeLessThanOrEqual(Math.max(a.y + a.h, b.y + b.h) + token.h);
});

test('produce requests travel from the producers to the partition leaders', async ({ app, page }) => {
  await BoardPage.paused(app);
  await page.getByTestId('board-produce').click();
  // The engine's Produce requests (client app-producer -> leader) reach the page with the next views.
  await page.getByTestId('time-play').click();
  const request = page.locator('[data-testid^="message-produce-app-producer-"][data-kind="request"]').first();
  await expect(request).toBeAttached({ timeout: 15_000 });
  await expect(page.getByTestId('producers-node')).toContainText('app-producer');
  const leader = Number(await request.getAttribute('data-to'));
  // It goes to a broker that leads a partition of orders.
  await expect(
    page.locator(`[data-testid^="replica-orders-"][data-testid$="-${leader}"][data-role="leader"]`).first(),
  ).toBeAttached();
  expect(Number(await request.getAttribute('data-slowed'))).toBeGreaterThan(1);
});

test('controller failover bumps the controller epoch', async ({ app, page }) => {
  const board = await BoardPage.paused(app);
  await page.getByTestId('broker-kill-1').click();
  // One query, so the answer is read from one render: two reads (any controller, then broker 1's
  // flag) could straddle the kill's frame and pass before the new election.
  await board.advanceUntil(
    async () => (await page.locator('[data-controller="true"]:not([data-testid="broker-1"])').count()) === 1,
    15,
  );
  await expect(page.getByTestId('controller-summary')).toContainText('epoch 2');
  await expect(page.getByTestId('election-story')).toContainText('/controller_epoch 1 → 2');
});

test('the cluster view has no serious accessibility violations', async ({ app, page }) => {
  await BoardPage.paused(app);
  const results = await new AxeBuilder({ page }).include('[data-testid="board"]').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('unclean election with a lagging replica shows the lost offsets in red', async ({ app, page }) => {
  const board = await BoardPage.paused(app, 'scenarios');
  await page.getByTestId('preset-elections').click();
  await board.tab('cluster');
  await expect(page.getByTestId('unclean-payments')).toBeChecked();
  await expect(board.replica('payments', 0, 1)).toHaveAttribute('data-role', 'leader');
  const produced = page.getByTestId('board-produced');
  await page.getByTestId('board-produce').click();
  await board.advanceUntil(async () => (await produced.getAttribute('data-acked')) === '20', 10);
  // Broker 3 is cut off: after replica.lag.time.max.ms it leaves the ISR, lagging at offset 20.
  await page.getByTestId('broker-isolate-3').click();
  await board.advanceUntil(
    async () => (await board.replica('payments', 0, 3).getAttribute('data-isr')) === 'false',
    15,
  );
  await page.getByTestId('board-produce').click();
  await board.advanceUntil(async () => (await produced.getAttribute('data-acked')) === '40', 10);
  await expect(board.replica('payments', 0, 1)).toHaveAttribute('data-leo', '40');
  await expect(board.replica('payments', 0, 3)).toHaveAttribute('data-leo', '20');
  // Both in-sync replicas die; the partition has no ISR member left.
  await page.getByTestId('broker-kill-1').click();
  await page.getByTestId('broker-kill-2').click();
  await board.advance(8);
  // The lagging replica comes back and, unclean election being allowed, leads: 20-39 are gone.
  await page.getByTestId('broker-heal-3').click();
  await board.advanceUntil(async () => (await board.leaderOf('payments', 0)) === 3, 20);
  await expect(page.getByTestId('lost-offsets')).toContainText('payments-0: offsets 20–39 lost');
  await expect(page.getByTestId('lost-payments-0')).toHaveText('lost 20–39');
  await expect(page.getByTestId('election-story')).toContainText('Unclean election on payments-0');
});

test('create a topic: the placement is previewed step by step, then created exactly so', async ({ app, page }) => {
  const board = await BoardPage.paused(app);
  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('events');
  await page.getByTestId('create-topic-partitions').fill('4');
  await page.getByTestId('create-topic-rf').fill('2');
  await page.getByTestId('create-topic-racks').uncheck();
  await page.getByTestId('create-topic-start').fill('1');
  await page.getByTestId('create-topic-preview').click();
  const show = page.getByTestId('placement-show');
  await expect(show).toBeVisible();
  const steps = Number(await show.getAttribute('data-steps'));
  // arrange + start + (leader + follower) x 4 partitions (+ the shift step at partition 3).
  expect(steps).toBe(2 + 8 + 1);
  await page.getByTestId('placement-end').click();
  await expect(show).toHaveAttribute('data-step', String(steps));
  await page.getByTestId('create-topic-submit').click();
  // Start index 1 on brokers 1, 2, 3: partition 0's leader is broker 2 (once the controller has run).
  await board.advanceUntil(async () => (await board.leaderOf('events', 0)) !== null, 5);
  await expect(board.replica('events', 0, 2)).toHaveAttribute('data-role', 'leader');
  await expect(board.replica('events', 1, 3)).toHaveAttribute('data-role', 'leader');
  await expect(board.replica('events', 2, 1)).toHaveAttribute('data-role', 'leader');
  // A refused creation changes nothing and says why, with Kafka's error name.
  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('events');
  await page.getByTestId('create-topic-submit').click();
  await expect(page.getByTestId('board-error')).toContainText('TOPIC_ALREADY_EXISTS');
});

test("the seeds' placement example: 2 topics x 2 partitions x RF 2 on 4 brokers, without and with racks", async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app);
  const layout = async () => {
    const out: Record<string, number[]> = {};
    for (const t of ['topic1', 'topic2'])
      for (const p of [0, 1]) {
        const replicas = page.locator(`[data-testid^="replica-${t}-${p}-"]`);
        await expect(replicas).toHaveCount(2);
        const leader = await board.leaderOf(t, p);
        const all = [];
        for (const r of await replicas.all()) all.push(Number((await r.getAttribute('data-testid'))?.split('-').pop()));
        out[`${t}-${p}`] = [leader ?? -1, ...all.filter((b) => b !== leader)];
      }
    return out;
  };
  await page.getByTestId('create-topic-preset').selectOption('seed-2x2-norack');
  await expect(board.broker(4)).toBeVisible();
  await board.advanceUntil(async () => (await board.leaderOf('topic2', 1)) !== null, 5);
  // Seed 000: leaders round-robin over brokers 1-4, each follower on the next broker.
  expect(await layout()).toEqual({ 'topic1-0': [1, 2], 'topic1-1': [2, 3], 'topic2-0': [3, 4], 'topic2-1': [4, 1] });
  await page.getByTestId('create-topic-preset').selectOption('seed-2x2-racks');
  // The first example's topics would be discarded: the page asks first.
  await page.getByTestId('discard-confirm').click();
  await expect(page.getByRole('region', { name: 'Rack rack-2' })).toBeVisible();
  await board.advanceUntil(async () => (await board.leaderOf('topic2', 1)) !== null, 5);
  // With racks: brokers alternate 1, 3, 2, 4; every partition has a replica on each rack.
  expect(await layout()).toEqual({ 'topic1-0': [1, 3], 'topic1-1': [3, 2], 'topic2-0': [2, 4], 'topic2-1': [4, 1] });
});
