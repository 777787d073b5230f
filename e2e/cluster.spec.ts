import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { PlanePage } from './planePage';

test('brokers by rack, the controller with its epoch, replicas with roles and ISR', async ({ app, page }) => {
  const plane = new PlanePage(app);
  await plane.open();
  await plane.pause();
  for (const id of [1, 2, 3]) await expect(plane.broker(id)).toHaveAttribute('data-alive', 'true');
  await expect(plane.broker(1)).toHaveAttribute('data-controller', 'true');
  await expect(page.getByTestId('controller-badge-1')).toContainText('epoch 1');
  await expect(page.getByRole('region', { name: 'Rack rack-a' }).getByTestId('broker-3')).toBeVisible();
  // orders-0: leader on broker 1 (start index 0), both followers in sync.
  await expect(plane.replica('orders', 0, 1)).toHaveAttribute('data-role', 'leader');
  await expect(plane.replica('orders', 0, 2)).toHaveAttribute('data-role', 'follower');
  await expect(plane.replica('orders', 0, 2)).toHaveAttribute('data-isr', 'true');
  // The coordination store shows the brokers' ephemeral registrations and the controller.
  await expect(page.getByTestId('znode-/brokers/ids/1')).toHaveAttribute('data-ephemeral', 'true');
  await expect(page.getByTestId('znode-/controller')).toContainText('"brokerid":1');
  await expect(page.getByTestId('znode-/controller_epoch')).toContainText('1');
});

test('kill the leader: a new leader from the ISR, groups keep their generation, acks=all produce goes on; restart: back in the ISR', async ({
  app,
  page,
}) => {
  const plane = new PlanePage(app);
  await plane.open();
  await plane.pause();
  await plane.tab('groups');
  const stable = async () =>
    (await plane.group('billing').getAttribute('data-state')) === 'Stable' &&
    (await plane.group('analytics').getAttribute('data-state')) === 'Stable';
  await plane.advanceUntil(stable, 20);
  const gens = { billing: await plane.generation('billing'), analytics: await plane.generation('analytics') };
  await plane.tab('cluster');
  // Broker 2 leads orders-1 (rack-alternated brokers 1, 2, 3 and start index 0).
  expect(await plane.leaderOf('orders', 1)).toBe(2);
  const isrBefore = ['1', '3'];
  await page.getByTestId('broker-kill-2').click();
  await expect(plane.broker(2)).toHaveAttribute('data-state', 'down');
  // Nothing moves until ZooKeeper expires broker 2's session (6 s); then the controller elects.
  await plane.advanceUntil(async () => {
    const l = await plane.leaderOf('orders', 1);
    return l !== null && l !== 2;
  }, 15);
  const newLeader = await plane.leaderOf('orders', 1);
  expect(isrBefore).toContain(String(newLeader));
  await expect(plane.replica('orders', 1, 2)).toHaveAttribute('data-role', 'offline');
  await expect(page.getByTestId('election-story')).toContainText('expired the session of broker-2');
  await expect(page.getByTestId('election-story')).toContainText(`chose broker ${newLeader}, the first live member`);
  // Produce with acks=all still succeeds (min.insync.replicas=2, two replicas left in the ISR).
  const acked = Number(await page.getByTestId('plane-produced').getAttribute('data-acked'));
  await page.getByTestId('plane-produce').click();
  await plane.advanceUntil(
    async () => Number(await page.getByTestId('plane-produced').getAttribute('data-acked')) >= acked + 20,
    10,
  );
  await expect(page.getByTestId('plane-produced')).toHaveAttribute('data-failed', '0');
  // The groups' generations did not change: only partition leadership moved.
  await plane.tab('groups');
  expect(await plane.generation('billing')).toBe(gens.billing);
  expect(await plane.generation('analytics')).toBe(gens.analytics);
  await plane.tab('cluster');
  // Restart: broker 2 registers again, catches up and rejoins the ISR.
  await page.getByTestId('broker-restart-2').click();
  await plane.advanceUntil(async () => (await plane.replica('orders', 1, 2).getAttribute('data-isr')) === 'true', 30);
  await expect(plane.replica('orders', 1, 2)).toHaveAttribute('data-role', 'follower');
  await expect(plane.broker(2)).toHaveAttribute('data-alive', 'true');
});

test('controller failover bumps the controller epoch', async ({ app, page }) => {
  const plane = new PlanePage(app);
  await plane.open();
  await plane.pause();
  await page.getByTestId('broker-kill-1').click();
  await plane.advanceUntil(
    async () =>
      (await page.locator('[data-controller="true"]').count()) === 1 &&
      (await plane.broker(1).getAttribute('data-controller')) === 'false',
    15,
  );
  await expect(page.getByTestId('controller-summary')).toContainText('epoch 2');
  await expect(page.getByTestId('election-story')).toContainText('/controller_epoch 1 → 2');
});

test('the cluster view has no serious accessibility violations', async ({ app, page }) => {
  const plane = new PlanePage(app);
  await plane.open();
  await plane.pause();
  const results = await new AxeBuilder({ page }).include('[data-testid="plane"]').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
