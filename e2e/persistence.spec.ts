import type { Page } from '@playwright/test';
import { defaultPartition } from '../src/engine/codec/murmur2';
import { expect, GlassboxPage, test } from './fixtures';
import { BoardPage } from './boardPage';

test('a reload is a cluster restart: the same records at the same offsets, and recovery reports', async ({
  app,
  page,
}) => {
  test.setTimeout(120_000);
  await app.open();
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  const keys = ['alpha', 'beta', 'gamma'];
  const placed: { key: string; partition: number; offset: number }[] = [];
  for (const key of keys) {
    const partition = defaultPartition(new TextEncoder().encode(key), partitions);
    await app.produce({ topic: 'orders', key, value: `v-${key}` });
    const cell = app.partition('orders', partition).locator(`[data-key="${key}"]`).last();
    await expect(cell).toBeVisible();
    const offset = Number((await cell.getAttribute('data-testid'))?.split('-').pop());
    placed.push({ key, partition, offset });
  }
  // flush.ms (1 s) hands each record to IndexedDB's write queue (the recovery point); it is saved
  // once the transaction completes: wait until every placed record is below its partition's
  // durable offset.
  for (const r of placed) {
    await expect
      .poll(async () => Number(await app.partition('orders', r.partition).getAttribute('data-durable')))
      .toBeGreaterThan(r.offset);
  }
  const durable = await Promise.all(
    Array.from({ length: partitions }, async (_, p) =>
      Number(await app.partition('orders', p).getAttribute('data-durable')),
    ),
  );

  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached();
  await page.getByTestId('time-play').click();
  await expect(page.getByTestId('recovery-report')).toContainText('Recovered from IndexedDB');
  // Nothing saved is lost (the restarted cluster's own clients may already have appended more).
  for (const [p, point] of durable.entries()) {
    expect(Number(await app.partition('orders', p).getAttribute('data-leo'))).toBeGreaterThanOrEqual(point);
  }
  // The records read back at the same offsets, found through the restarted log's own lookup path.
  await app.sideTab('lookup');
  for (const r of placed) {
    await page.getByTestId('lookup-partition').selectOption(`orders-${r.partition}`);
    await page.getByTestId('lookup-offset').fill(String(r.offset));
    await page.getByTestId('lookup-run').click();
    const result = await app.stepLookupToResult();
    await expect(result).toHaveAttribute('data-offset', String(r.offset));
    await expect(result).toContainText(`key ${r.key}`);
  }
});

test('closing the page in the middle of a bulk produce: recovery runs and saved records are intact', async ({
  app,
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await app.open();
  await app.sideTab('producer');
  await page.getByTestId('producer-n').fill('200000');
  await page.getByTestId('producer-rate').fill('2000');
  await page.getByTestId('producer-send-n').click();
  const job = page.getByTestId('job-progress');
  await expect(job).toHaveAttribute('data-state', 'running');
  const partitions = await page.locator('[data-testid^="partition-orders-"]').count();
  await expect
    .poll(async () => Number(await app.partition('orders', 0).getAttribute('data-durable')))
    .toBeGreaterThan(1000);
  // What the page says is saved (its IndexedDB transactions completed); then pull the plug mid-job.
  const durable = await Promise.all(
    Array.from({ length: partitions }, async (_, p) =>
      Number(await app.partition('orders', p).getAttribute('data-durable')),
    ),
  );
  await expect(job).toHaveAttribute('data-state', 'running');
  await page.close({ runBeforeUnload: false });

  const again = await context.newPage();
  const app2 = new GlassboxPage(again);
  await app2.open();
  await expect(again.getByTestId('recovery-report')).toBeVisible();
  for (const [p, point] of durable.entries()) {
    const marks = await app2.partition('orders', p).evaluate((el) => ({
      leo: Number(el.getAttribute('data-leo')),
      hw: Number(el.getAttribute('data-hw')),
    }));
    expect(marks.leo).toBeGreaterThanOrEqual(point);
    // The log is consistent: HW <= LEO, and the records at the log end read back.
    expect(marks.hw).toBeLessThanOrEqual(marks.leo);
    await expect(app2.partition('orders', p).locator('[data-testid^="record-orders-"]').first()).toBeVisible();
  }
  expect(app2.errors).toEqual([]);
});

const GROUPS = ['billing', 'analytics'] as const;

/** The running consumers of a group on the board, each with the partitions it owns. */
async function boardMembers(
  board: BoardPage,
  group: string,
): Promise<{ name: string; partitions: string; memberId: string }[]> {
  const out: { name: string; partitions: string; memberId: string }[] = [];
  for (const chip of await board.group(group).locator('[data-testid^="consumer-"][data-state="running"]').all()) {
    const id = (await chip.getAttribute('data-testid')) ?? '';
    if (!/^consumer-[^-]+$/.test(id)) continue;
    out.push({
      name: id.slice('consumer-'.length),
      partitions: (await chip.getAttribute('data-partitions')) ?? '',
      memberId: (await chip.getAttribute('data-member-id')) ?? '',
    });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Both groups Stable past `generations`, every member holding its share of orders' 6 partitions. */
async function groupsSettled(board: BoardPage, generations: Record<string, number>): Promise<boolean> {
  for (const g of GROUPS) {
    if ((await board.group(g).getAttribute('data-state')) !== 'Stable') return false;
    if ((await board.generation(g)) <= (generations[g] ?? -1)) return false;
    const ms = await boardMembers(board, g);
    if (ms.length === 0 || ms.some((m) => m.memberId === '' || m.partitions === '')) return false;
  }
  return true;
}

/** Each group's committed offset (CURRENT-OFFSET) per orders partition, as kafka-consumer-groups --describe shows it. */
async function committedOffsets(page: Page): Promise<Record<string, number | null>> {
  const out: Record<string, number | null> = {};
  for (const g of GROUPS) {
    for (let p = 0; p < 6; p++) {
      const v = await page.getByTestId(`describe-${g}-orders-${p}`).getAttribute('data-current-offset');
      out[`${g}-orders-${p}`] = v === null || v === '' ? null : Number(v);
    }
  }
  return out;
}

/** What the page shows of the cluster: replicas with role and ISR membership, ledger's marks and configs, the board. */
async function shownCluster(app: GlassboxPage, board: BoardPage) {
  const page = app.page;
  await board.tab('cluster');
  const replicas: Record<string, string[]> = {};
  for (const [topic, count] of [
    ['orders', 6],
    ['ledger', 2],
  ] as const) {
    for (let p = 0; p < count; p++) {
      const list: string[] = [];
      for (const r of await page.locator(`[data-testid^="replica-${topic}-${p}-"]`).all()) {
        const id = (await r.getAttribute('data-testid')) ?? '';
        list.push(
          `${id.split('-').pop()}:${await r.getAttribute('data-role')}:isr=${await r.getAttribute('data-isr')}`,
        );
      }
      replicas[`${topic}-${p}`] = list.sort();
    }
  }
  await page.getByTestId('topic-tab-ledger').click();
  const marks: Record<string, string> = {};
  for (const p of [0, 1]) {
    const el = app.partition('ledger', p);
    marks[`ledger-${p}`] = `leo=${await el.getAttribute('data-leo')} hw=${await el.getAttribute('data-hw')}`;
  }
  const form = page.getByTestId('topic-config-ledger');
  const configs = {
    'retention.ms': await form.getByTestId('topic-retention-ms').inputValue(),
    'cleanup.policy': await form.getByTestId('topic-cleanup-policy').inputValue(),
  };
  await board.tab('groups');
  const members: Record<string, string[]> = {};
  for (const g of GROUPS) members[g] = (await boardMembers(board, g)).map((m) => `${m.name}:${m.partitions}`);
  return { replicas, marks, configs, board: members };
}

test('a reload after creating a topic, changing its configs, moving a consumer and reassigning a replica shows the same cluster', async ({
  app,
  page,
}) => {
  test.setTimeout(240_000);
  const board = await BoardPage.paused(app);

  await page.getByTestId('create-topic').click();
  await page.getByTestId('create-topic-name').fill('ledger');
  await page.getByTestId('create-topic-partitions').fill('2');
  await page.getByTestId('create-topic-rf').fill('2');
  await page.getByTestId('create-topic-submit').click();
  // The clock is paused: the controller creates the partitions once time passes.
  await board.advance(1);
  await expect(page.getByTestId('topic-tab-ledger')).toBeVisible();

  await page.getByTestId('topic-tab-ledger').click();
  const form = page.getByTestId('topic-config-ledger');
  await form.getByTestId('topic-retention-ms').fill('3600000');
  await form.getByTestId('topic-cleanup-policy').selectOption('compact,delete');
  await form.getByTestId('topic-config-apply').click();
  await expect(page.getByTestId('topic-config-ledger').getByTestId('topic-cleanup-policy')).toHaveValue(
    'compact,delete',
  );

  await board.tab('groups');
  const generations = { billing: await board.generation('billing'), analytics: await board.generation('analytics') };
  await page.getByTestId('consumer-move-c3').selectOption('analytics');
  await expect(board.group('analytics').getByTestId('consumer-c3')).toBeVisible();

  // Move ledger-0's first replica to the broker that holds none, and let the reassignment finish.
  await board.tab('cluster');
  const held: number[] = [];
  for (const r of await page.locator('[data-testid^="replica-ledger-0-"]').all())
    held.push(Number((await r.getAttribute('data-testid'))?.split('-').pop()));
  const from = held[0] as number;
  const to = [1, 2, 3].find((b) => !held.includes(b)) as number;
  await page.getByTestId(`replica-move-ledger-0-${from}`).selectOption(String(to));
  await board.advanceUntil(
    async () =>
      (await board.replica('ledger', 0, from).count()) === 0 &&
      (await board.replica('ledger', 0, to).getAttribute('data-isr')) === 'true',
    30,
  );

  for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) await app.produce({ topic: 'ledger', key, value: `v-${key}` });
  await board.tab('groups');
  await board.advanceUntil(() => groupsSettled(board, generations), 40);
  await board.advanceUntil(async () => Object.values(await committedOffsets(page)).every((v) => v !== null), 20);
  const committed = await committedOffsets(page);
  // One writer sequence: a record saved is saved with everything handed to the store before it.
  // Two seconds (flush.ms is 1 s) hand those commits in __consumer_offsets over; a ledger record
  // sent after them and saved then covers them, and the znodes of the topic, its configs and the
  // reassignment written before.
  await board.advance(2);
  await app.produce({ topic: 'ledger', key: 'k6', value: 'last' });
  await page.getByTestId('topic-tab-ledger').click();
  await board.advanceUntil(async () => {
    let saved = 0;
    for (const p of [0, 1]) {
      const el = app.partition('ledger', p);
      const leo = Number(await el.getAttribute('data-leo'));
      if (Number(await el.getAttribute('data-durable')) < leo) return false;
      saved += leo;
    }
    return saved === 6;
  }, 20);
  const before = await shownCluster(app, board);
  expect(before.configs).toEqual({ 'retention.ms': '3600000', 'cleanup.policy': 'compact,delete' });
  expect(before.board.analytics?.map((m) => m.split(':')[0])).toEqual(['c3', 'c4', 'c5']);
  const beforeGenerations = {
    billing: await board.generation('billing'),
    analytics: await board.generation('analytics'),
  };

  await page.reload();
  await expect(page.getByTestId('board')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await board.pause();
  await board.tab('groups');
  // The restarted consumers join again: a new generation each, continuing the stored one.
  await board.advanceUntil(() => groupsSettled(board, beforeGenerations), 60);
  // The offsets committed before the reload come back from __consumer_offsets (consumers may have
  // committed further since).
  const after = await committedOffsets(page);
  for (const [k, v] of Object.entries(committed)) expect(after[k], k).toBeGreaterThanOrEqual(v as number);
  await board.advanceUntil(async () => {
    const shown = await shownCluster(app, board);
    return JSON.stringify(shown) === JSON.stringify(before);
  }, 20);
  expect(await shownCluster(app, board)).toEqual(before);
});

test('a reload in the middle of a Send N job resumes the stored cluster: its own address is no link to open, nothing is asked', async ({
  app,
  page,
}) => {
  await app.open();
  await app.sideTab('producer');
  await page.getByTestId('producer-n').fill('1000000');
  await page.getByTestId('producer-rate').fill('5000');
  await page.getByTestId('producer-send-n').click();
  const job = page.getByTestId('job-progress');
  await expect
    .poll(async () => Number(await job.getAttribute('data-done')), { timeout: 30_000 })
    .toBeGreaterThan(20_000);
  // The address now names the run with the job's newest slices, newer than the scenario saved with the cluster.
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('scenario=');
  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached({ timeout: 20_000 });
  await expect(page.getByTestId('board')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('recovery-report')).toBeVisible();
  await app.frames(5);
  await expect(page.getByTestId('discard-dialog')).toBeHidden();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});
