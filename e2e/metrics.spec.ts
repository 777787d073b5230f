/**
 * Issue 13's "one event log and Kafka's metrics": a killed leader shows in UnderReplicatedPartitions
 * and in the event log in the order Kafka's controller handles it; acks=all below
 * min.insync.replicas shows NOT_ENOUGH_REPLICAS on the record's journey and in the failed counts.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

const metric = (page: Page, id: string) => page.getByTestId(`metric-${id}`);
const metricValue = async (page: Page, id: string) => Number(await metric(page, id).getAttribute('data-value'));

/** The event log's entries, oldest first (the panel lists newest first). */
async function logEntries(page: Page): Promise<{ n: number; kind: string; type: string; at: number; text: string }[]> {
  const rows = await page
    .getByTestId('event-log')
    .locator('[data-testid^="event-"]')
    .evaluateAll((els) =>
      els.map((el) => ({
        n: Number(el.getAttribute('data-testid')?.slice('event-'.length)),
        kind: el.getAttribute('data-kind') ?? '',
        type: el.getAttribute('data-type') ?? '',
        at: Number(el.getAttribute('data-at')),
        text: el.textContent ?? '',
      })),
    );
  return rows.sort((a, b) => a.n - b.n);
}

test('kill a leader: UnderReplicatedPartitions rises above 0, the event log shows the election in Kafka’s order, and a restart brings it back to 0', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app);
  await app.sideTab('metrics');
  await expect(metric(page, 'UnderReplicatedPartitions')).toHaveAttribute('data-value', '0');
  await expect(metric(page, 'ActiveControllerCount')).toHaveAttribute('data-value', '1');
  // Broker 2 leads orders-1 and is not the controller (broker 1 is).
  expect(await board.leaderOf('orders', 1)).toBe(2);
  await expect(board.broker(1)).toHaveAttribute('data-controller', 'true');
  const killedAt = await board.now();
  await page.getByTestId('broker-kill-2').click();
  await board.advanceUntil(async () => (await metricValue(page, 'UnderReplicatedPartitions')) > 0, 20);
  // Every partition has a replica on broker 2: orders' 6 and __consumer_offsets' 50.
  await board.advanceUntil(async () => (await metricValue(page, 'UnderReplicatedPartitions')) === 56, 10);
  await expect(page.getByTestId('metrics-since')).toContainText('you killed broker 2');
  // What the kill changed, as a table (Metric · Was · Now · why), only what moved meaningfully.
  const row = page.getByTestId('metrics-delta-UnderReplicatedPartitions');
  await expect(row).toHaveAttribute('data-was', '0');
  await expect(row).toHaveAttribute('data-now', '56');
  await expect(row).toContainText('left an ISR');
  await expect(page.getByTestId('metrics-delta-RequestQueueTimeMs')).toHaveCount(0);
  if (process.env.SHOTS) await page.screenshot({ path: 'docs/metrics-kill-1280.png' });

  await app.sideTab('events');
  await expect(page.getByTestId('event-log')).toBeVisible();
  const after = (await logEntries(page)).filter((e) => e.at >= killedAt);
  const first = (match: (e: (typeof after)[number]) => boolean, from = 0) =>
    after.findIndex((e, i) => i >= from && match(e));
  const down = first((e) => e.type === 'brokerDown');
  const expired = first((e) => e.type === 'sessionExpired', down);
  const change = first((e) => e.type === 'brokerChange', expired);
  const elected = first((e) => e.kind === 'election' && e.type === 'partitionStateChanged', change);
  const leads = first((e) => e.type === 'becameLeader', elected);
  expect(
    [down, expired, change, elected, leads].every((i) => i >= 0),
    JSON.stringify(after.slice(0, 12)),
  ).toBe(true);
  expect(after[elected]?.text).toContain('orders-1');
  // Choosing the election highlights what it is about on the board: the new leaders.
  await page.getByTestId(`event-${after[leads]?.n}`).click();
  await expect(page.getByTestId(`event-${after[leads]?.n}`)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('[data-testid^="broker-"][data-focused="true"]').first()).toBeAttached();
  // ...and brings its subject into view: the partition's log it elected a leader for, marked.
  await expect(page.locator('[data-testid^="partition-orders-"][data-focused="true"]').first()).toBeInViewport();
  // Filters: by kind, then by broker.
  await page.getByTestId('event-filter-kind').selectOption('election');
  await expect(page.getByTestId('event-log').locator('[data-kind]:not([data-kind="election"])')).toHaveCount(0);
  await page.locator('#side-body').evaluate((el) => el.scrollTo(0, 0));
  if (process.env.SHOTS) await page.screenshot({ path: 'docs/events-kill-1280.png' });
  await page.getByTestId('event-filter-kind').selectOption('');
  // A rebalance is about its group: the board switches to the groups tab and shows the card, marked.
  const rebalance = (await logEntries(page)).filter((e) => e.kind === 'rebalance' || e.kind === 'commit').at(-1);
  await page.getByTestId(`event-${rebalance?.n}`).click();
  await expect(page.getByTestId('board-tab-groups')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid^="group-"][data-focused="true"]').first()).toBeInViewport();

  await board.tab('cluster');
  await page.getByTestId('broker-restart-2').click();
  await app.sideTab('metrics');
  await board.advanceUntil(async () => (await metricValue(page, 'UnderReplicatedPartitions')) === 0, 40);
  await expect(page.getByTestId('metrics-since')).toContainText('you restarted broker 2');
  expect(await metricValue(page, 'OfflinePartitionsCount')).toBe(0);
});

test('acks=all with 2 of 3 brokers down: the journey shows NOT_ENOUGH_REPLICAS at the leader and the failed counts rise', async ({
  app,
  page,
}) => {
  test.setTimeout(120_000);
  const board = await BoardPage.paused(app);
  await page.getByTestId('broker-kill-2').click();
  await page.getByTestId('broker-kill-3').click();
  // Until their sessions expire the two are still in the ISRs: a leader's HW waits for them, and says so.
  await page.getByTestId('board-produce').click();
  const stall = page.locator('[data-testid^="hw-stall-orders-"]').first();
  await board.advanceUntil(async () => (await stall.count()) > 0, 5);
  await expect(stall).toContainText(/waits for the ISR: broker [23] \(down\)/);
  await expect(board.replica('orders', 0, 2)).toContainText('offline');
  await expect(board.replica('orders', 0, 2)).not.toContainText('HW');
  // The sessions expire, broker 1 leads everything with an ISR of one: below min.insync.replicas=2.
  await board.advanceUntil(
    async () => (await board.leaderOf('orders', 1)) === 1 && (await board.leaderOf('orders', 2)) === 1,
    30,
  );
  await app.produce({ topic: 'orders', key: 'k1', value: 'v1' });
  const journey = page.getByTestId('record-journey');
  await board.advanceUntil(async () => (await journey.getAttribute('data-error')) === 'NOT_ENOUGH_REPLICAS', 10);
  await expect(page.getByTestId('journey-stage-3')).toContainText('NOT_ENOUGH_REPLICAS');
  await expect(page.getByTestId('journey-stage-3')).toContainText('min.insync.replicas');
  await board.advanceUntil(async () => Number(await journey.getAttribute('data-retries')) >= 2, 10);
  await expect(page.getByTestId('journey-stage-3')).toContainText(/retry \d+/);
  await expect(page.getByTestId('journey-stage-3')).toHaveClass(/failed/);

  // The demo producer's 20 records: refused until delivery.timeout.ms, then counted as failed.
  const produced = page.getByTestId('board-produced');
  const failedBefore = Number(await produced.getAttribute('data-failed'));
  await page.getByTestId('board-produce').click();
  await app.sideTab('metrics');
  await board.advanceUntil(async () => (await metricValue(page, 'FailedProduceRequestsPerSec')) > 0, 10);
  // delivery.timeout.ms is 120 s: ten seconds a press.
  for (let i = 0; i < 15 && Number(await produced.getAttribute('data-failed')) <= failedBefore; i++)
    await board.advance(10);
  expect(Number(await produced.getAttribute('data-failed'))).toBeGreaterThan(failedBefore);
  await app.sideTab('events');
  await expect(page.getByTestId('event-log').locator('[data-kind="producer"]').first()).toContainText(
    'NOT_ENOUGH_REPLICAS',
  );
});

test('the metrics and events tabs at phone width', async ({ app, page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const board = await BoardPage.paused(app);
  await page.getByTestId('broker-kill-2').click();
  await app.sideTab('metrics');
  await board.advanceUntil(async () => (await metricValue(page, 'UnderReplicatedPartitions')) > 0, 20);
  if (process.env.SHOTS) await page.screenshot({ path: 'docs/metrics-kill-390.png' });
  await app.sideTab('events');
  await page.getByTestId('event-filter-kind').selectOption('election');
  if (process.env.SHOTS) await page.screenshot({ path: 'docs/events-kill-390.png' });
});

test('the metrics and events tabs have no serious accessibility violations', async ({ app, page }) => {
  await BoardPage.paused(app);
  const serious = async () =>
    (await new AxeBuilder({ page }).include('.side').analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  await app.sideTab('metrics');
  await expect(metric(page, 'ActiveControllerCount')).toBeVisible();
  expect(await serious(), 'metrics').toEqual([]);
  await app.sideTab('events');
  await expect(page.getByTestId('event-log')).toBeVisible();
  expect(await serious(), 'events').toEqual([]);
  // The entries are buttons in the tab order: Enter chooses one.
  await page.getByTestId('event-log').locator('button').first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-log').locator('button[aria-pressed="true"]')).toHaveCount(1);
});
