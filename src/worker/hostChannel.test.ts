/**
 * EngineHost driven the way the page drives it: the page's EngineClient on one end of a real
 * MessageChannel, serve() on the other, a MemoryStore behind it and a manual host clock, through
 * the same request / reply / notice protocol (open, produce, frames, a board action, a
 * bulk job paced by the host's timers).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClient, type EngineEndpoint, WorkerError } from './client';
import { ManualHostClock } from './ManualHostClock';
import type { WorkerMessage, WorkerRequest } from './protocol';
import { type HostEndpoint, serve } from './serve';

const open: MessagePort[] = [];

afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/** A page and a host joined by one MessageChannel; the host's time moves only with `clock.advance`. */
function channel() {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const page: EngineEndpoint = {
    postMessage: (message: WorkerRequest, transfer) => port1.postMessage(message, transfer),
    listen: (handler: (message: WorkerMessage) => void) => {
      port1.onmessage = (ev) => handler(ev.data);
    },
    terminate: () => port1.close(),
  };
  const worker: HostEndpoint = {
    postMessage: (message, transfer) => port2.postMessage(message, transfer),
    listen: (handler) => {
      port2.onmessage = (ev) => handler(ev.data);
    },
  };
  const clock = new ManualHostClock();
  const host = serve(worker, clock);
  return { client: new EngineClient(page), clock, host };
}

describe('EngineHost over a MessageChannel', () => {
  it('opens the demo in memory, sends a record, and frames bring its offset and the clock', async () => {
    const { client } = channel();
    const opened = await client.call('open', { storage: 'memory', takeOver: false });
    if (opened.status !== 'opened') throw new Error('a memory cluster is never locked');
    expect(opened.storage).toEqual({ kind: 'memory', error: null });
    expect(opened.created).toBe(true);
    const orders = opened.view.partitions.filter((p) => p.topic === 'orders');
    expect(orders.length).toBeGreaterThan(0);
    const before = orders.reduce((n, p) => n + p.logEndOffset, 0);

    const sent = await client.call('produceRecord', { topic: 'orders', key: 'k', value: 'v', headers: [] });
    expect(sent.sendId).toBeGreaterThanOrEqual(0);
    await client.call('runUntilIdle', null);
    const frame = await client.call('frame', { advanceMs: 50, windows: [], run: 0, have: { cluster: -1 } });
    // The engine clock moved by the frame's advanceMs at least (runUntilIdle moved it too).
    expect(frame.nowMs).toBeGreaterThanOrEqual(opened.view.nowMs + 50);
    const after = frame.views.cluster?.partitions.filter((p) => p.topic === 'orders') ?? [];
    expect(after.reduce((n, p) => n + p.logEndOffset, 0)).toBe(before + 1);
  });

  it('kills a broker with a board action and the next frames show it down and its leaders moved', async () => {
    const { client, clock } = channel();
    await client.call('open', { storage: 'memory', takeOver: false });
    const board = await client.call('loadScenario', null);
    const { run } = await client.call('frame', { advanceMs: 0, windows: [], run: 0, have: {} });
    const victim = board.controller ?? board.brokers[0]?.id;
    if (victim === undefined) throw new Error('the demo has brokers');
    const led = (v: typeof board) => v.topics.flatMap((t) => t.partitions).filter((p) => p.leader === victim).length;
    expect(led(board)).toBeGreaterThan(0);

    const killed = await client.call('applyAction', { op: 'killBroker', broker: victim });
    expect(killed.brokers.find((b) => b.id === victim)?.state).toBe('down');
    // The controller notices through ZooKeeper (session expiry, the /brokers/ids watch) as engine time passes.
    let latest = killed;
    for (let i = 0; i < 100 && led(latest) > 0; i++) {
      clock.advance(1000);
      const frame = await client.call('frame', { advanceMs: 200, windows: [], run, have: { board: latest.version } });
      if (frame.views.board) latest = frame.views.board;
    }
    expect(led(latest)).toBe(0);
    // Its ephemeral /brokers/ids znode went with its session: Kafka no longer counts it alive.
    expect(latest.brokers.find((b) => b.id === victim)?.alive).toBe(false);
  });

  it('runs a bulk send in slices on the host clock, reporting its progress in frames until it finishes', async () => {
    const { client, clock } = channel();
    await client.call('open', { storage: 'memory', takeOver: false });
    const { jobId } = await client.call('produceRecords', {
      topic: 'orders',
      count: 200,
      keyPrefix: 'k',
      valueBytes: 10,
      ratePerSecond: 0,
    });
    const states: string[] = [];
    for (let i = 0; i < 200 && states.at(-1) !== 'finished'; i++) {
      clock.advance(50);
      const frame = await client.call('frame', { advanceMs: 0, windows: [], run: 0, have: {} });
      for (const j of frame.jobs) if (j.jobId === jobId) states.push(j.state);
    }
    expect(states.at(-1)).toBe('finished');
    expect(clock.pending).toBe(0);
  });

  it('answers a refused command with the Kafka error name across the channel', async () => {
    const { client } = channel();
    await client.call('open', { storage: 'memory', takeOver: false });
    const refused = await client.call('applyAction', { op: 'killBroker', broker: 99 }).then(
      () => null,
      (e: unknown) => e,
    );
    // Cluster.broker(99) throws BROKER_NOT_AVAILABLE; the page rebuilds it as a WorkerError with that code.
    expect(refused).toBeInstanceOf(WorkerError);
    expect(refused instanceof WorkerError && refused.code).toBe('BROKER_NOT_AVAILABLE');
  });
});

describe('a paced bulk send follows the host clock', () => {
  it('sends ratePerSecond records per second of host time: half a second of a 100/s job is 50 records', async () => {
    const { client, clock } = channel();
    await client.call('open', { storage: 'memory', takeOver: false });
    const args = { topic: 'orders', count: 1000, keyPrefix: null, valueBytes: 10, ratePerSecond: 100 };
    const { jobId } = await client.call('produceRecords', args);
    const done = async () => {
      const frame = await client.call('frame', { advanceMs: 0, windows: [], run: 0, have: {} });
      return frame.jobs.find((j) => j.jobId === jobId)?.done;
    };
    await done();
    clock.advance(500);
    expect(await done()).toBe(50);
    // No host time, no slices: the job waits, however many frames are asked for.
    expect(await done()).toBeUndefined();
    await client.call('cancelJob', { jobId });
    clock.advance(10);
    const frame = await client.call('frame', { advanceMs: 0, windows: [], run: 0, have: {} });
    expect(frame.jobs.find((j) => j.jobId === jobId)?.state).toBe('cancelled');
  });
});

describe('one frame: views by version', () => {
  it('sends a wanted view only when its version moved past the one the page holds, and no view it did not ask for', async () => {
    const { client } = channel();
    await client.call('open', { storage: 'memory', takeOver: false });
    const first = await client.call('frame', { advanceMs: 0, windows: [], run: 0, have: { cluster: -1, board: -1 } });
    const cluster = first.views.cluster;
    const board = first.views.board;
    if (!cluster || !board) throw new Error('a page holding nothing gets every view it asks for');
    expect(first.views.accumulator).toBeUndefined();

    // Nothing moved (no engine time, no command): nothing is sent again.
    const have = { cluster: cluster.version, board: board.version };
    const idle = await client.call('frame', { advanceMs: 0, windows: [], run: first.run, have });
    expect(idle.views).toEqual({});

    // A record moves the logs (a new cluster version); engine time moves the board.
    await client.call('produceRecord', { topic: 'orders', key: 'k', value: 'v', headers: [] });
    await client.call('runUntilIdle', null);
    const moved = await client.call('frame', { advanceMs: 10, windows: [], run: first.run, have });
    expect(moved.views.cluster?.version).toBeGreaterThan(cluster.version);
    expect(moved.views.board?.version).toBeGreaterThan(board.version);
    // Without asking, no view is built: the page paces its views (FramePacing).
    const unasked = await client.call('frame', { advanceMs: 10, windows: [], run: first.run, have: {} });
    expect(unasked.views).toEqual({});
    expect(unasked.nowMs).toBe(moved.nowMs + 10);
  });

  it('carries the accumulator while the page shows it, and then every panel event', async () => {
    const { client } = channel();
    await client.call('open', { storage: 'memory', takeOver: false });
    await client.call('produceRecord', { topic: 'orders', key: 'k', value: 'v', headers: [] });
    const frame = await client.call('frame', { advanceMs: 5, windows: [], run: 0, have: { accumulator: -1 } });
    expect(frame.views.accumulator?.producer).toBe(
      frame.events.producer[0]?.producer ?? frame.views.accumulator?.producer,
    );
    expect(frame.views.accumulator?.version).toBeGreaterThan(0);
    const again = await client.call('frame', {
      advanceMs: 0,
      windows: [],
      run: frame.run,
      have: { accumulator: frame.views.accumulator?.version ?? -1 },
    });
    expect(again.views.accumulator).toBeUndefined();
  });
});
