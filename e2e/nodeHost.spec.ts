/**
 * The page attached to the Node engine (issue 14, test 5): `npm run broker` serves the built page,
 * a kafkajs 2.2.4 consumer group of two members runs against its brokers, and the page (over the
 * WebSocket, no worker) shows both members in their group as chips named by client.id, each with
 * the partitions the group's leader client assigned (what kafkajs itself reports on joining).
 * Screenshots of the attached page at 1280x800 and 390x844 go to docs/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import kafkajs from 'kafkajs';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

// Broker listeners in the brief's test range; the page on the next port block.
const KAFKA_PORT = 19_900;
const HTTP_PORT = 19_920;
const ORIGIN = `http://127.0.0.1:${HTTP_PORT}`;
const GROUP = 'e2e-clients';

let broker: ChildProcess;
const consumers: kafkajs.Consumer[] = [];
let producer: kafkajs.Producer;
/** kafkajs's own word on each member's assignment: member id -> `demo-p` list. */
const joined = new Map<string, string>();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // One process (node with tsx's loader), so stopping it stops the brokers: no npx or tsx parent to orphan it.
  broker = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/node/brokerMain.ts',
      ...['--brokers', '3', '--port', String(KAFKA_PORT), '--http-port', String(HTTP_PORT)],
      ...['--topic', 'demo:3:3', '--dist', 'dist'],
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    broker.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('the page, attached to this engine')) resolve();
    });
    broker.once('exit', (code) => reject(new Error(`the broker exited (${code}): ${out}`)));
  });
  const kafka = new kafkajs.Kafka({
    clientId: 'e2e-app',
    brokers: [`127.0.0.1:${KAFKA_PORT}`],
    logLevel: kafkajs.logLevel.NOTHING,
  });
  producer = kafka.producer();
  await producer.connect();
  await producer.send({
    topic: 'demo',
    acks: -1,
    messages: Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: `record ${i}` })),
  });
  for (const clientId of ['billing-app', 'audit-app']) {
    const c = new kafkajs.Kafka({
      clientId,
      brokers: [`127.0.0.1:${KAFKA_PORT}`],
      logLevel: kafkajs.logLevel.NOTHING,
    }).consumer({ groupId: GROUP, heartbeatInterval: 500 });
    c.on(c.events.GROUP_JOIN, (e) => {
      const parts = (e.payload.memberAssignment.demo ?? []).map((p: number) => `demo-${p}`).sort();
      joined.set(e.payload.memberId, parts.join(','));
    });
    await c.connect();
    await c.subscribe({ topic: 'demo', fromBeginning: true });
    await c.run({ eachMessage: async () => undefined });
    consumers.push(c);
  }
});

test.afterAll(async () => {
  for (const c of consumers) await c.disconnect().catch(() => undefined);
  await producer?.disconnect().catch(() => undefined);
  if (broker && broker.exitCode === null) {
    const exited = new Promise((resolve) => broker.once('exit', resolve));
    broker.kill('SIGTERM');
    await exited;
  }
});

test('the attached page shows the real clients’ consumers in their group with the assignment their leader computed', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const board = new BoardPage(app);
  await board.open(`${ORIGIN}/`);
  // Attached, not a worker: the banner says so, and this page controls.
  await expect(app.page.getByTestId('host-attached')).toHaveAttribute('data-role', 'controls');
  // Its engine runs on the wall clock: nothing here pauses, steps or fast-forwards it.
  await expect(app.page.getByTestId('time-pace')).toHaveAttribute('data-speed', 'wall');
  for (const control of ['time-play', 'time-step', 'time-idle', 'time-speed', 'board-advance-1000'])
    await expect(app.page.getByTestId(control)).toHaveCount(0);
  // A second page watches: it says so, and what it tries to change is refused in words.
  const watcher = await app.page.context().newPage();
  try {
    await watcher.goto(`${ORIGIN}/`);
    await expect(watcher.getByTestId('host-attached')).toHaveAttribute('data-role', 'watching');
    await expect(watcher.getByTestId('host-watching')).toBeVisible();
    await watcher.getByTestId('broker-kill-1').click();
    await expect(watcher.getByTestId('board-error')).toContainText('CLUSTER_AUTHORIZATION_FAILED');
    await expect(watcher.getByTestId('board-error')).toContainText('this page is watching');
    await expect(app.page.getByTestId('broker-1')).not.toHaveAttribute('data-state', 'down');
    await expect(app.page.getByTestId('host-attached')).toContainText('1 other page watching');
  } finally {
    await watcher.close();
  }
  await expect(app.page.getByTestId('host-attached')).not.toContainText('watching');
  await board.tab('groups');
  const group = board.group(GROUP);
  await expect(group).toHaveAttribute('data-state', 'Stable', { timeout: 60_000 });
  await expect(app.page.getByTestId(`group-clients-${GROUP}`)).toHaveAttribute('data-protocol', 'RoundRobinAssigner');
  // Both members joined the same generation (a rebalance after the second joined).
  await expect.poll(() => joined.size, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  const chips = group.locator('[data-client-id]');
  await expect(chips).toHaveCount(2, { timeout: 30_000 });
  // Each chip is a member kafkajs knows, with the partitions kafkajs says its leader assigned it.
  await expect
    .poll(async () => {
      const seen: Record<string, string> = {};
      for (const chip of await chips.all()) {
        seen[(await chip.getAttribute('data-member-id')) ?? ''] = (await chip.getAttribute('data-partitions')) ?? '';
      }
      const want: Record<string, string> = {};
      for (const id of Object.keys(seen)) want[id] = joined.get(id) ?? '(not a member kafkajs reported)';
      return JSON.stringify(seen) === JSON.stringify(want) ? 'same' : JSON.stringify({ seen, want });
    })
    .toBe('same');
  const clientIds = await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-client-id')).sort());
  expect(clientIds).toEqual(['audit-app', 'billing-app']);
  // The assignment bytes were decoded: ConsumerProtocolAssignment version 0 or more (kafkajs writes 0).
  for (const chip of await chips.all()) expect(await chip.getAttribute('data-assignment-version')).toMatch(/^\d+$/);
  // Together they hold demo's three partitions, none twice.
  const all = (await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-partitions') ?? '')))
    .join(',')
    .split(',')
    .filter(Boolean)
    .sort();
  expect(all).toEqual(['demo-0', 'demo-1', 'demo-2']);

  // Their requests are tokens from a client box named by client.id (the engine's view of the
  // gateway's connections): a producer sending now, and the consumers' group traffic.
  let sending = true;
  const trickle = (async () => {
    for (let i = 0; sending; i++) {
      await producer.send({ topic: 'demo', acks: -1, messages: [{ key: `t${i}`, value: 'tick' }] });
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await board.tab('cluster');
    await expect(app.page.getByTestId('producers-node')).toContainText('e2e-app');
    await expect(app.page.getByTestId('consumers-node')).toContainText('billing-app');
    await expect(app.page.locator('[data-testid^="message-produce-e2e-app-"]').first()).toBeAttached({
      timeout: 15_000,
    });
    await app.page.mouse.move(0, 0);
    await app.page
      .getByTestId('producers-node')
      .evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    if (process.env.SHOTS) await app.page.screenshot({ path: 'docs/node-host-tokens-1280.png' });
    await app.page.setViewportSize({ width: 390, height: 844 });
    await app.page
      .getByTestId('producers-node')
      .evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    if (process.env.SHOTS) await app.page.screenshot({ path: 'docs/node-host-tokens-390.png' });
    await app.page.setViewportSize({ width: 1280, height: 800 });
  } finally {
    sending = false;
    await trickle;
  }
  await board.tab('groups');

  // No glossary popover from where the pointer happens to rest.
  await app.page.mouse.move(0, 0);
  await group.scrollIntoViewIfNeeded();
  if (process.env.SHOTS) await app.page.screenshot({ path: 'docs/node-host-groups-1280.png' });
  await app.page.setViewportSize({ width: 390, height: 844 });
  await group.locator('[data-client-id]').first().scrollIntoViewIfNeeded();
  await app.page.mouse.move(0, 0);
  if (process.env.SHOTS) await app.page.screenshot({ path: 'docs/node-host-groups-390.png' });
});

test('Kill and Restart on the attached page close and reopen that broker’s port for real clients', async ({ app }) => {
  test.setTimeout(120_000);
  const board = new BoardPage(app);
  await board.open(`${ORIGIN}/`);
  await expect(app.page.getByTestId('host-attached')).toHaveAttribute('data-role', 'controls');
  await board.tab('cluster');
  await app.page.getByTestId('broker-kill-3').click();
  await expect(board.broker(3)).toHaveAttribute('data-state', 'down');
  // A dead broker's process has no listener: connection refused, as kafkajs and kcat see it.
  await expect.poll(() => tryConnect(KAFKA_PORT + 2), { timeout: 15_000 }).toBe('refused');
  await app.page.getByTestId('broker-restart-3').click();
  // It listens again once registered (its old ZooKeeper session expired first).
  await expect.poll(() => tryConnect(KAFKA_PORT + 2), { timeout: 30_000 }).toBe('connected');
  await expect(board.broker(3)).toHaveAttribute('data-state', 'running');
});

function tryConnect(port: number): Promise<'connected' | 'refused'> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', () => resolve('refused'));
  });
}
