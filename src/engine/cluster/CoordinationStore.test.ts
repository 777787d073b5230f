import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { type CoordinationEvent, CoordinationStore, type WatchedEvent } from './CoordinationStore';
import { Scheduler } from './Scheduler';
import { errorCodeOf } from './testing';

function setup() {
  const clock = new ManualClock(0);
  const scheduler = new Scheduler(clock);
  const events: CoordinationEvent[] = [];
  const zk = new CoordinationStore(scheduler, (e) => events.push(e));
  return { clock, scheduler, zk, events };
}

describe('CoordinationStore (ZooKeeper model)', () => {
  it('creates, reads, versions and deletes znodes with ZooKeeper errors', () => {
    const { zk } = setup();
    zk.createRecursive('/brokers/topics/t', { partitions: { 0: [1, 2] } });
    expect(zk.getChildren('/brokers')).toEqual(['topics']);
    expect(zk.getData('/brokers/topics/t').stat.version).toBe(0);
    expect(errorCodeOf(() => zk.create('/brokers/topics/t', {}))).toBe('NODE_EXISTS');
    expect(errorCodeOf(() => zk.create('/nope/x', {}))).toBe('NO_NODE');
    expect(errorCodeOf(() => zk.getData('/nope'))).toBe('NO_NODE');
    expect(zk.setData('/brokers/topics/t', { v: 2 }, 0).version).toBe(1);
    expect(errorCodeOf(() => zk.setData('/brokers/topics/t', { v: 3 }, 0))).toBe('BAD_VERSION');
    expect(zk.getData('/brokers/topics/t').data).toEqual({ v: 2 });
    expect(errorCodeOf(() => zk.delete('/brokers'))).toBe('NOT_EMPTY');
    zk.deleteRecursive('/brokers');
    expect(zk.exists('/brokers')).toBeNull();
  });

  it('keeps data as values: mutating what was passed or read does not change the tree', () => {
    const { zk } = setup();
    const data = { isr: [1, 2] };
    zk.create('/s', data);
    data.isr.push(3);
    const read = zk.getData('/s').data as { isr: number[] };
    read.isr.push(4);
    expect(zk.getData('/s').data).toEqual({ isr: [1, 2] });
  });

  it('expires a silent session after its timeout and deletes its ephemeral nodes', () => {
    const { zk, scheduler, events } = setup();
    zk.createRecursive('/brokers/ids', null);
    const s1 = zk.createSession('broker-1', 6000);
    const s2 = zk.createSession('broker-2', 6000);
    zk.create('/brokers/ids/1', { host: 'b1' }, { ephemeralSessionId: s1 });
    zk.create('/brokers/ids/2', { host: 'b2' }, { ephemeralSessionId: s2 });
    expect(zk.getData('/brokers/ids/1').stat.ephemeralOwner).toBe(s1);
    scheduler.runUntil(4000);
    zk.heartbeat(s2);
    scheduler.runUntil(5999);
    expect(zk.expireSessions()).toEqual([]);
    scheduler.runUntil(6000);
    expect(zk.expireSessions()).toEqual([s1]);
    expect(zk.getChildren('/brokers/ids')).toEqual(['2']);
    expect(
      events.some((e) => e.type === 'znodeDeleted' && e.path === '/brokers/ids/1' && e.reason === 'sessionExpired'),
    ).toBe(true);
    // An expired session cannot create ephemerals any more.
    expect(errorCodeOf(() => zk.create('/brokers/ids/1', {}, { ephemeralSessionId: s1 }))).toBe('NO_NODE');
    scheduler.runUntil(10_000);
    expect(zk.expireSessions()).toEqual([s2]);
  });

  it('fires watches once, after the change, on the scheduler', () => {
    const { zk, scheduler } = setup();
    const s = zk.createSession('broker-1', 6000);
    const seen: WatchedEvent[] = [];
    const watcher = (e: WatchedEvent) => seen.push(e);
    expect(zk.exists('/controller', { sessionId: s, watcher })).toBeNull();
    zk.create('/controller', { brokerid: 1 });
    expect(seen).toEqual([]); // not in the middle of the write
    scheduler.runUntil(0);
    expect(seen).toEqual([{ type: 'NodeCreated', path: '/controller' }]);
    zk.setData('/controller', { brokerid: 2 });
    scheduler.runUntil(0);
    expect(seen.length).toBe(1); // one-shot: not re-armed
    zk.getChildren('/', { sessionId: s, watcher });
    zk.getData('/controller', { sessionId: s, watcher });
    zk.delete('/controller');
    scheduler.runUntil(0);
    expect(seen.slice(1)).toEqual([
      { type: 'NodeDeleted', path: '/controller' },
      { type: 'NodeChildrenChanged', path: '/' },
    ]);
  });

  it('counts the data and child watches set on a path, one per watcher, gone once fired (ZooKeeper WatchManager)', () => {
    const { zk, scheduler } = setup();
    const s = zk.createSession('broker-1', 6000);
    const a = () => {};
    const b = () => {};
    expect(zk.watchCount('/controller')).toEqual({ data: 0, child: 0 });
    zk.exists('/controller', { sessionId: s, watcher: a });
    zk.exists('/controller', { sessionId: s, watcher: a }); // the same watcher twice is one registration
    zk.exists('/controller', { sessionId: s, watcher: b });
    zk.getChildren('/', { sessionId: s, watcher: a });
    expect(zk.watchCount('/controller')).toEqual({ data: 2, child: 0 });
    expect(zk.watchCount('/')).toEqual({ data: 0, child: 1 });
    zk.create('/controller', { brokerid: 1 });
    scheduler.runUntil(0);
    expect(zk.watchCount('/controller')).toEqual({ data: 0, child: 0 });
    expect(zk.watchCount('/')).toEqual({ data: 0, child: 0 });
  });

  it('drops the watches of an expired session', () => {
    const { zk, scheduler } = setup();
    const s = zk.createSession('broker-1', 100);
    let fired = 0;
    zk.exists('/x', { sessionId: s, watcher: () => fired++ });
    scheduler.runUntil(100);
    zk.expireSessions();
    zk.create('/x', 1);
    scheduler.runUntil(200);
    expect(fired).toBe(0);
  });

  it('closing a session removes its ephemerals at once', () => {
    const { zk } = setup();
    const s = zk.createSession('broker-3', 6000);
    zk.create('/controller', { brokerid: 3 }, { ephemeralSessionId: s });
    zk.closeSession(s);
    expect(zk.exists('/controller')).toBeNull();
  });

  it('snapshots and restores the persistent part of the tree', () => {
    const { zk } = setup();
    const s = zk.createSession('broker-1', 6000);
    zk.createRecursive('/brokers/topics/t/partitions/0/state', { leader: 1 });
    zk.create('/controller', { brokerid: 1 }, { ephemeralSessionId: s });
    const snap = zk.snapshot();
    const other = setup().zk;
    other.restore(snap);
    expect(other.getData('/brokers/topics/t/partitions/0/state').data).toEqual({ leader: 1 });
    expect(other.exists('/controller')).toBeNull();
  });
});
