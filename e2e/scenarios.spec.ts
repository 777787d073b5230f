import { expect, test } from './fixtures';
import { GlassboxPage } from './fixtures';
import { PlanePage } from './planePage';

/** What the two pages must agree on: time, leaders, ISRs, offsets, groups and assignments. */
async function stateOf(plane: PlanePage) {
  const page = plane.page;
  const replicas = page.locator('[data-testid^="replica-orders-"]');
  const rs: string[] = [];
  for (const r of await replicas.all())
    rs.push(
      `${await r.getAttribute('data-testid')} ${await r.getAttribute('data-role')} ${await r.getAttribute('data-isr')} ${await r.getAttribute('data-leo')} ${await r.getAttribute('data-hw')}`,
    );
  await plane.tab('groups');
  const gs: string[] = [];
  for (const g of ['billing', 'analytics'])
    gs.push(`${g} ${await plane.group(g).getAttribute('data-state')} ${await plane.generation(g)}`);
  const cs: string[] = [];
  for (const c of ['c1', 'c2', 'c3', 'c4', 'c5'])
    cs.push(
      `${c} ${await plane.consumer(c).getAttribute('data-state')} ${await plane.consumer(c).getAttribute('data-partitions')}`,
    );
  await plane.tab('cluster');
  return { now: await plane.now(), rs: rs.sort(), gs, cs };
}

test('a shared link replays the same run in a new page', async ({ app, page, browser }) => {
  const plane = new PlanePage(app);
  await plane.open();
  await plane.pause();
  await plane.advance(4);
  await page.getByTestId('broker-kill-2').click();
  await plane.tab('groups');
  await page.getByTestId('consumer-move-c1').selectOption('analytics');
  await plane.advance(12);
  await plane.tab('cluster');
  await page.getByTestId('plane-produce').click();
  await plane.advance(3);
  const before = await stateOf(plane);
  await plane.tab('scenarios');
  const link = await page.getByTestId('scenario-link').inputValue();
  expect(link).toContain('#scenario=');
  await expect(page.getByTestId('action-log').locator('li')).toHaveCount(3);

  // A fresh browser context: its own IndexedDB, so nothing is shared but the link.
  const context = await browser.newContext();
  const other = new GlassboxPage(await context.newPage());
  const plane2 = new PlanePage(other);
  await plane2.open(link);
  await expect(other.page.getByTestId('time-play')).toHaveAttribute('aria-pressed', 'false');
  await expect(other.page.getByTestId('plane-clock')).toHaveAttribute('data-now', String(before.now));
  expect(await stateOf(plane2)).toEqual(before);
  expect(other.errors).toEqual([]);
  await context.close();
});

test('an invalid link gets a clear message and the default cluster', async ({ app, page }) => {
  const plane = new PlanePage(app);
  await plane.open('/#scenario=bm90LWpzb24');
  await expect(page.getByTestId('link-notice')).toContainText(
    "This link's scenario could not be read (it is not valid JSON)",
  );
  await expect(page.getByTestId('link-notice')).toContainText('the default cluster is shown instead');
  await expect(plane.broker(1)).toBeVisible();
  await expect(plane.replica('orders', 0, 1)).toBeVisible();
});

test('a guided scenario walks through its steps, one sentence each', async ({ app, page }) => {
  const plane = new PlanePage(app);
  await plane.open();
  await plane.pause();
  await plane.tab('scenarios');
  await page.getByTestId('guide-elections-failover').click();
  const guide = page.getByTestId('guide');
  await expect(guide).toHaveAttribute('data-step', '0');
  await expect(guide.locator('li.current')).toContainText('Broker 1 is the controller');
  await page.getByTestId('guide-next').click();
  await expect(guide).toHaveAttribute('data-step', '1');
  await expect(guide.locator('li.current')).toContainText('Broker 1 is killed');
  await expect(page.getByTestId('action-log')).toContainText('"op":"killBroker","broker":1');
  await plane.tab('cluster');
  await expect(plane.broker(1)).toHaveAttribute('data-state', 'down');
  await plane.advanceUntil(async () => (await plane.leaderOf('payments', 0)) === 2, 15);
  await expect(page.getByTestId('controller-summary')).toContainText('epoch 2');
});
