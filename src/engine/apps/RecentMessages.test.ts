import { describe, expect, it } from 'vitest';
import { MapStore } from '../log/testSupport';
import { ClusterApps } from './ClusterApps';
import { MAX_BOARD_MESSAGES, MESSAGE_CAPS, RecentMessages } from './RecentMessages';
import type { BoardMessageView } from './types';

/** Ticks `ms` in short steps, gathering every message any view carried (each lingers briefly). */
function gather(apps: ClusterApps, ms: number, step = 50): BoardMessageView[] {
  const seen = new Map<number, BoardMessageView>();
  for (let t = 0; t < ms; t += step) {
    apps.tick(step);
    for (const m of apps.view().messages) seen.set(m.id, m);
  }
  return [...seen.values()].sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
}

describe('the board’s messages: every API the engine sends', () => {
  // ZooKeeper mode: on a broker failure the controller elects new leaders, writes each partition's
  // state znode, then sends LeaderAndIsr to the replicas and UpdateMetadata to the live brokers
  // (Kafka 3.9 core/src/main/scala/kafka/controller/KafkaController.scala onBrokerFailure ->
  // PartitionStateMachine.electLeaderForPartitions -> ControllerChannelManager.sendRequestsToBrokers).
  it('after a leader dies, shows LeaderAndIsr from the controller to the replicas, after the state znode write', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(5000);
    const before = apps.view();
    const controller = before.controller;
    const orders = before.topics.find((t) => t.name === 'orders');
    const victim = orders?.partitions.map((p) => p.leader).find((l) => l !== null && l !== controller);
    expect(victim).toBeDefined();
    const p = orders?.partitions.find((x) => x.leader === victim);
    const stateWrites: number[] = [];
    apps.engine.subscribe(
      (e) => {
        if (e.type === 'znodeDataChanged' && e.path === `/brokers/topics/orders/partitions/${p?.partition}/state`)
          stateWrites.push(e.atMs);
      },
      ['znodeDataChanged'],
    );
    const killedAt = before.nowMs;
    apps.apply({ op: 'killBroker', broker: victim ?? -1 });
    const messages = gather(apps, 25_000).filter((m) => m.sentAtMs >= killedAt);
    const lai = messages.filter((m) => m.api === 'LeaderAndIsr' && m.kind === 'request');
    expect(lai.length).toBeGreaterThan(0);
    const surviving = (p?.replicas ?? []).filter((r) => r !== victim);
    for (const m of lai) expect(m.from).toBe(controller);
    for (const r of surviving) expect(lai.some((m) => m.to === r)).toBe(true);
    expect(lai.some((m) => m.to === victim)).toBe(false);
    expect(messages.some((m) => m.api === 'UpdateMetadata')).toBe(true);
    // The new state was written before the controller told anyone (view times are relative).
    expect(stateWrites.length).toBeGreaterThan(0);
    const firstWrite = Math.min(...stateWrites) - (apps.engine.now() - apps.view().nowMs);
    expect(lai[0]?.sentAtMs).toBeGreaterThanOrEqual(firstWrite);
    // Answers come back to the controller.
    expect(messages.some((m) => m.api === 'LeaderAndIsr' && m.kind === 'response' && m.to === controller)).toBe(true);
  });

  // The consumer's join: FindCoordinator, then JoinGroup and SyncGroup to the coordinator (Kafka 3.9
  // clients/.../consumer/internals/AbstractCoordinator.java ensureCoordinatorReady, joinGroupIfNeeded).
  it('a consumer joining sends JoinGroup and then SyncGroup to its coordinator', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(5000);
    apps.apply({ op: 'addGroup', group: 'readers', assignor: 'range' });
    apps.apply({ op: 'addConsumer', group: 'readers', name: 'r1' });
    const mine = gather(apps, 10_000, 20).filter((m) => m.client === 'r1' && m.kind === 'request');
    const join = mine.findIndex((m) => m.api === 'JoinGroup');
    const sync = mine.findIndex((m) => m.api === 'SyncGroup');
    expect(mine.findIndex((m) => m.api === 'FindCoordinator')).toBeLessThan(join);
    expect(join).toBeGreaterThanOrEqual(0);
    expect(sync).toBeGreaterThan(join);
    expect(mine[sync]?.to).toBe(mine[join]?.to);
    expect(mine[join]?.from).toBeNull();
  });

  it('keeps the frame bounded however busy the cluster is', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(3000);
    for (let i = 0; i < 6; i++) apps.apply({ op: 'addConsumer', group: 'analytics', name: `busy${i}` });
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 2000 });
    let most = 0;
    for (let t = 0; t < 6000; t += 100) {
      apps.tick(100);
      most = Math.max(most, apps.view().messages.length);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(MAX_BOARD_MESSAGES);
  });

  it('caps each family on its own, so heartbeats never crowd a JoinGroup out', () => {
    const r = new RecentMessages();
    const at = { sentAtMs: 0, arriveAtMs: 1, kind: 'request' as const, from: null, to: 1 };
    r.add({ ...at, api: 'JoinGroup', client: 'c1' });
    for (let i = 0; i < 100; i++) r.add({ ...at, api: 'Heartbeat', client: 'c1' });
    const live = r.live(0, 400);
    expect(live.filter((m) => m.api === 'Heartbeat').length).toBe(MESSAGE_CAPS.chatter);
    expect(live.some((m) => m.api === 'JoinGroup')).toBe(true);
  });
});

describe('what each message changed on arrival (effects, from the events’ cause)', () => {
  it('one record, RF 3: the Produce moves the leader’s LEO, the Fetch responses the followers’, a follower’s next Fetch the HW', () => {
    const apps = new ClusterApps(1, 'empty4', { store: new MapStore(), panelProducer: true });
    apps.apply({ op: 'createTopic', name: 'clicks', partitions: 1, replicationFactor: 3, startIndex: null });
    apps.tick(2000);
    const p = apps.view().topics.find((t) => t.name === 'clicks')?.partitions[0];
    const leader = p?.leader ?? -1;
    const followers = (p?.replicas ?? []).filter((r) => r !== leader);
    apps.apply({ op: 'produceRecord', topic: 'clicks', key: 'k', value: 'v', headers: [] });
    const seen = gather(apps, 700, 1).filter((m) => m.effects?.some((e) => e.topic === 'clicks'));
    const changes = seen.flatMap((m) =>
      (m.effects ?? []).map(
        (e) => `${m.api} ${m.kind} ${m.from ?? 'client'}->${m.to}: ${e.field} of ${e.broker} ${e.from}->${e.to}`,
      ),
    );
    const [f1, f2] = followers;
    expect(changes).toEqual(
      expect.arrayContaining([
        `Produce request client->${leader}: leo of ${leader} 0->1`,
        `Fetch response ${leader}->${f1}: leo of ${f1} 0->1`,
        `Fetch response ${leader}->${f2}: leo of ${f2} 0->1`,
      ]),
    );
    // The HW moves on the leader when the last in-sync follower's next Fetch (at offset 1) arrives.
    const hw = seen.filter((m) => m.effects?.some((e) => e.field === 'hw' && e.broker === leader));
    expect(hw).toHaveLength(1);
    expect(hw[0]).toMatchObject({ api: 'Fetch', kind: 'request', to: leader });
    expect(followers).toContain(hw[0]?.from);
    const produce = seen.find((m) => m.api === 'Produce' && m.kind === 'request');
    expect(produce?.sentAtMs).toBeLessThan(hw[0]?.sentAtMs ?? -1);
    // The followers learn the new HW from a later Fetch response (answered within replica.fetch.wait.max.ms).
    for (const f of followers) expect(changes).toContain(`Fetch response ${leader}->${f}: hw of ${f} 0->1`);
  });
});
