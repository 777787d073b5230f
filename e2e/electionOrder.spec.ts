/**
 * An election drawn in Kafka's order: the controller writes the partition's state znode, sends
 * LeaderAndIsr to the brokers, and the new leader lights up only once that request's token has
 * reached its card. A page-side MutationObserver timestamps each DOM change (performance.now()),
 * so the spec reads the order without a sleep.
 */
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

interface Order {
  /** When the state znode of orders-0 flashed (written). */
  stateWritten: number | null;
  /** Broker id -> when the first LeaderAndIsr request token to it appeared. */
  laiTo: Record<string, number>;
  /** Broker id -> when its orders-0 replica was named leader by the view, and when drawn as leader. */
  viewLeader: Record<string, number>;
  shownLeader: Record<string, number>;
}

const observe = (killed: number) => `(() => {
  const out = { stateWritten: null, laiTo: {}, viewLeader: {}, shownLeader: {} };
  window.__order = out;
  const note = () => {
    const t = performance.now();
    if (out.stateWritten === null && document.querySelector('[data-testid="znode-/brokers/topics/orders/partitions/0/state"].flash'))
      out.stateWritten = t;
    // A LeaderAndIsr request flies alone or grouped in a chip with others (data-apis, data-tos).
    for (const e of document.querySelectorAll('.message-token[data-apis~="LeaderAndIsr"]')) {
      const apis = e.getAttribute('data-apis').split(' ');
      const tos = e.getAttribute('data-tos').split(' ');
      apis.forEach((api, i) => {
        const to = tos[i];
        // The election's requests, not one still flying from before it (the cluster's start).
        if (api === 'LeaderAndIsr' && out.stateWritten !== null && !(to in out.laiTo)) out.laiTo[to] = t;
      });
    }
    for (const e of document.querySelectorAll('[data-testid^="replica-orders-0-"]')) {
      const b = e.getAttribute('data-testid').split('-').pop();
      if (b === '${killed}') continue;
      if (e.getAttribute('data-role') === 'leader' && !(b in out.viewLeader)) out.viewLeader[b] = t;
      if (e.getAttribute('data-shown-role') === 'leader' && !(b in out.shownLeader)) out.shownLeader[b] = t;
    }
  };
  new MutationObserver(note).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'data-role', 'data-shown-role', 'data-apis'] });
})()`;

test('killing the leader of orders-0: the state znode is written, LeaderAndIsr flies to the new leader, and only its landing lights the leader up', async ({
  app,
  page,
}) => {
  const board = new BoardPage(app);
  await board.open();
  await expect(page.locator('[data-testid^="message-fetch-"]').first()).toBeAttached({ timeout: 15_000 });
  const killed = await board.leaderOf('orders', 0);
  if (killed === null) throw new Error('orders-0 has no leader');
  await page.evaluate(observe(killed));
  await page.getByTestId(`broker-kill-${killed}`).click();
  await expect(board.broker(killed)).toHaveAttribute('data-state', 'down');
  // The session expires after 6 s of engine time, then the controller elects (at 1x).
  await expect
    .poll(async () => Object.keys(((await page.evaluate('window.__order')) as Order).shownLeader).length, {
      timeout: 30_000,
    })
    .toBe(1);
  const order = (await page.evaluate('window.__order')) as Order;
  const leader = Object.keys(order.shownLeader)[0] ?? '';
  expect(await board.leaderOf('orders', 0)).toBe(Number(leader));
  const written = order.stateWritten ?? Number.NaN;
  const sent = order.laiTo[leader] ?? Number.NaN;
  const lit = order.shownLeader[leader] ?? Number.NaN;
  const named = order.viewLeader[leader] ?? Number.NaN;
  test.info().annotations.push({
    type: 'election',
    description: `znode written ${Math.round(written)}, LeaderAndIsr to ${leader} ${Math.round(sent)}, view names it ${Math.round(named)}, lit ${Math.round(lit)}`,
  });
  // The controller's write comes first, then its request, then the leader lights up once the
  // token has crossed (REPLAY_MS = 600 ms of wall time).
  expect(written).toBeLessThanOrEqual(sent);
  expect(sent).toBeLessThan(lit);
  expect(lit - sent).toBeGreaterThanOrEqual(550);
  // The view knew before the board drew it: the hold is what keeps the order.
  expect(named).toBeLessThan(lit);
});
