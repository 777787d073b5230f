import { describe, expect, it } from 'vitest';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import type { ZookeeperConsumerConnector } from './ZookeeperConsumerConnector';

function owners(bed: GroupTestBed, group: string, topic: string): Record<string, unknown> {
  const base = `/consumers/${group}/owners/${topic}`;
  if (!bed.zk.exists(base)) return {};
  return Object.fromEntries(bed.zk.getChildren(base).map((p) => [p, bed.zk.tryGetData(`${base}/${p}`)]));
}

function settled(cs: ZookeeperConsumerConnector[]): boolean {
  return cs.every((c) => c.state === 'running');
}

describe('the legacy ZooKeeper consumer (seed 002)', () => {
  it('registers under /consumers/<group>/ids and range-assigns by sorted consumer id; every member rebalances', () => {
    const bed = new GroupTestBed({ seed: 1 });
    bed.createTopic('t', 6);
    const cs = ['c1', 'c2', 'c3'].map((id, i) => {
      bed.scheduler.schedule(i * 500, () => {});
      return id;
    });
    const started: ZookeeperConsumerConnector[] = [];
    cs.forEach((id, i) => {
      bed.scheduler.schedule(i * 500, () =>
        started.push(bed.groups.createZkConsumer(id, 'g', ['t'], { 'auto.offset.reset': 'smallest' })),
      );
    });
    bed.run(1_100);
    expect(started.length).toBe(3);
    expect(bed.runUntil(() => settled(started), 30_000)).toBe(true);
    bed.run(5_000);
    expect(bed.zk.getChildren('/consumers/g/ids')).toEqual(['c1', 'c2', 'c3']);
    expect(bed.zk.session(started[0]?.sessionId ?? -1)?.state).toBe('connected');
    expect(owners(bed, 'g', 't')).toEqual({ 0: 'c1-0', 1: 'c1-0', 2: 'c2-0', 3: 'c2-0', 4: 'c3-0', 5: 'c3-0' });
    // The herd: c1 rebalanced for itself, for c2 and for c3; c2 for itself and for c3; c3 once.
    expect(started.map((c) => c.rebalances)).toEqual([3, 2, 1]);
    const watchFired = bed.ofType('zkRebalance').filter((e) => e.phase === 'watchFired');
    expect(watchFired.every((e) => e.path === '/consumers/g/ids')).toBe(true);
  });

  it('a member claiming a partition its previous owner still holds backs off and retries (conflicting ownership)', () => {
    const bed = new GroupTestBed({ seed: 3 });
    bed.createTopic('t', 4);
    const a = bed.groups.createZkConsumer('a', 'g', ['t']);
    expect(bed.runUntil(() => settled([a]), 10_000)).toBe(true);
    expect(owners(bed, 'g', 't')).toEqual({ 0: 'a-0', 1: 'a-0', 2: 'a-0', 3: 'a-0' });
    // b rebalances at once on registering; a only after noticing the watch (up to 20 ms later).
    const b = bed.groups.createZkConsumer('b', 'g', ['t']);
    expect(bed.runUntil(() => settled([a, b]) && Object.values(owners(bed, 'g', 't')).includes('b-0'), 30_000)).toBe(
      true,
    );
    const steps = bed
      .ofType('zkRebalance')
      .filter((e) => e.consumerId === 'b')
      .map((e) => e.phase);
    expect(steps).toEqual([
      'registered',
      'started',
      'released',
      'assigned',
      'ownershipConflict',
      'backoff',
      'released',
      'assigned',
      'succeeded',
    ]);
    const conflict = bed.ofType('zkRebalance').find((e) => e.phase === 'ownershipConflict');
    expect(conflict?.partitions).toEqual([
      { topic: 't', partition: 2 },
      { topic: 't', partition: 3 },
    ]);
    expect(conflict?.owners).toEqual(['a-0', 'a-0']);
    // The retry came rebalance.backoff.ms (2000) after the conflict.
    const retry = bed.ofType('zkRebalance').filter((e) => e.consumerId === 'b' && e.phase === 'released')[1];
    expect((retry?.atMs ?? 0) - (conflict?.atMs ?? 0)).toBe(2000 + 2);
    expect(owners(bed, 'g', 't')).toEqual({ 0: 'a-0', 1: 'a-0', 2: 'b-0', 3: 'b-0' });
  });

  it('gives up after rebalance.max.retries when an owner never lets go (ConsumerRebalanceFailedException)', () => {
    const bed = new GroupTestBed({ seed: 5 });
    bed.createTopic('t', 1);
    const zombie = bed.zk.createSession('zombie', 60_000);
    bed.zk.createRecursive('/consumers/g/owners/t', null);
    bed.zk.create('/consumers/g/owners/t/0', 'zombie-0', { ephemeralSessionId: zombie });
    const c = bed.groups.createZkConsumer('c', 'g', ['t'], { 'rebalance.max.retries': 3, 'rebalance.backoff.ms': 500 });
    bed.scheduler.schedulePeriodic(1000, 1000, () => bed.zk.heartbeat(zombie));
    bed.run(10_000);
    expect(c.state).toBe('failed');
    const phases = bed.ofType('zkRebalance').map((e) => e.phase);
    expect(phases.filter((p) => p === 'ownershipConflict').length).toBe(3);
    expect(bed.ofType('zkRebalance').at(-1)?.reason).toContain('ConsumerRebalanceFailedException');
  });

  it('a crashed member disappears when its session expires; the others take over from the committed offsets', () => {
    const bed = new GroupTestBed({ seed: 9 });
    bed.createTopic('t', 2);
    bed.port.produce('t', 0, ['a0', 'a1', 'a2', 'a3']);
    bed.port.produce('t', 1, ['b0', 'b1', 'b2', 'b3']);
    const x = bed.groups.createZkConsumer('x', 'g', ['t'], {
      'auto.offset.reset': 'smallest',
      'auto.commit.interval.ms': 1_000,
    });
    const y = bed.groups.createZkConsumer('y', 'g', ['t'], {
      'auto.offset.reset': 'smallest',
      'auto.commit.interval.ms': 1_000,
    });
    const seen: string[] = [];
    const loop = (c: ZookeeperConsumerConnector) =>
      bed.scheduler.schedulePeriodic(10, 50, () => {
        if (c.state === 'running' || c.state === 'rebalancing')
          seen.push(...c.poll().map((r) => `${c.consumerId}:${r.partition}:${r.offset}`));
      });
    loop(x);
    loop(y);
    expect(bed.runUntil(() => seen.length === 8, 30_000)).toBe(true);
    bed.run(1_500); // an auto commit writes the positions
    expect(bed.zk.tryGetData('/consumers/g/offsets/t/0')).toBe(4);
    expect(bed.zk.tryGetData('/consumers/g/offsets/t/1')).toBe(4);
    y.crash();
    const crashedAt = bed.now();
    // A crashed process heartbeats no more; read it now, the store forgets the session once it expires.
    const lastHeartbeat = bed.zk.session(y.sessionId)?.lastHeartbeatMs ?? Number.NaN;
    bed.port.produce('t', 1, ['b4']);
    expect(bed.runUntil(() => seen.includes('x:1:4'), 30_000)).toBe(true);
    // Only when zookeeper.session.timeout.ms (6 s) had passed since y's last session heartbeat
    // (sent every 2 s) did its ephemeral znodes go and x rebalance.
    const expiredWatch = bed
      .ofType('zkRebalance')
      .find((e) => e.consumerId === 'x' && e.phase === 'watchFired' && e.atMs > crashedAt);
    expect(bed.zk.session(y.sessionId)).toBeUndefined();
    expect(crashedAt - lastHeartbeat).toBeLessThan(2_000);
    expect((expiredWatch?.atMs ?? 0) - lastHeartbeat).toBeGreaterThanOrEqual(6_000);
    expect((expiredWatch?.atMs ?? 0) - lastHeartbeat).toBeLessThanOrEqual(6_100);
    expect(bed.zk.getChildren('/consumers/g/ids')).toEqual(['x']);
    // x resumed partition 1 from y's committed offset 4: nothing consumed twice.
    expect(seen.filter((s) => s.endsWith(':1:3')).length).toBe(1);
  });

  it('a change under /brokers/ids makes every member rebalance', () => {
    const bed = new GroupTestBed({ seed: 11 });
    bed.createTopic('t', 2);
    const cs = ['p', 'q'].map((id) => bed.groups.createZkConsumer(id, 'g', ['t']));
    expect(bed.runUntil(() => settled(cs), 30_000)).toBe(true);
    bed.run(5_000);
    const before = cs.map((c) => c.rebalances);
    bed.zk.delete('/brokers/ids/3');
    bed.run(5_000);
    expect(cs.map((c) => c.rebalances)).toEqual(before.map((n) => n + 1));
    expect(bed.ofType('zkRebalance').filter((e) => e.phase === 'watchFired' && e.path === '/brokers/ids').length).toBe(
      2,
    );
  });
});
