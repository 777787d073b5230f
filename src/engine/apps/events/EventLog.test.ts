import { describe, expect, it } from 'vitest';
import { MapStore } from '../../log/testSupport';
import { ClusterApps } from '../ClusterApps';
import { COMMIT_WINDOW_MS } from './EventLog';
import type { EventLogEntry } from './types';

function demo(): ClusterApps {
  const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
  apps.tick(10_000);
  return apps;
}

/** The index of the first entry after `from` matching `match` (-1 if none). */
function indexOf(entries: EventLogEntry[], match: (e: EventLogEntry) => boolean, from = 0): number {
  for (let i = from; i < entries.length; i++) if (match(entries[i] as EventLogEntry)) return i;
  return -1;
}

describe('EventLog over the demo cluster', () => {
  it("kill a leader that is not the controller: the entries follow Kafka's ZooKeeper-mode order", () => {
    const apps = demo();
    const controller = apps.engine.controllerState().id;
    const victim = apps.engine.topicState('orders').partitions.find((p) => p.leader !== controller)?.leader ?? -1;
    expect(victim).toBeGreaterThan(0);
    const start = apps.eventLog.view().entries.length;
    apps.apply({ op: 'killBroker', broker: victim });
    apps.tick(30_000);
    const entries = apps.eventLog.view().entries.slice(start);
    // KafkaController: the dead broker's session expires and its /brokers/ids znode goes, the
    // controller's BrokerChange handles it (onBrokerFailure: elect leaders for its partitions,
    // shrink the ISRs it was in), and LeaderAndIsr makes the new leaders lead.
    const down = indexOf(entries, (e) => e.type === 'brokerDown' && e.brokers.includes(victim));
    const expired = indexOf(entries, (e) => e.type === 'sessionExpired' && e.brokers.includes(victim), down);
    const change = indexOf(entries, (e) => e.type === 'brokerChange', expired);
    const elected = indexOf(entries, (e) => e.kind === 'election' && e.type === 'partitionStateChanged', change);
    const leads = indexOf(entries, (e) => e.type === 'becameLeader', elected);
    expect([down, expired, change, elected, leads].every((i) => i >= 0)).toBe(true);
    expect(down < expired && expired < change && change < elected && elected < leads).toBe(true);
    const election = entries[elected] as EventLogEntry;
    // One entry for the controller's whole pass: every partition the victim led, orders' among them.
    expect(election.topics).toContain('orders');
    expect(election.text).toMatch(/offlinePartition/);
    expect(entries[down]?.kind).toBe('broker');
    expect(entries[change]?.kind).toBe('controller');
  });

  it('acks=all with 2 of 3 brokers down: the leader refusing with NOT_ENOUGH_REPLICAS is one entry whose count grows', () => {
    const apps = demo();
    apps.apply({ op: 'killBroker', broker: 2 });
    apps.apply({ op: 'killBroker', broker: 3 });
    apps.tick(30_000);
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 20 });
    apps.tick(40_000);
    const refused = apps.eventLog
      .view()
      .entries.filter((e) => e.kind === 'producer' && e.text.includes('NOT_ENOUGH_REPLICAS'));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.some((e) => e.count > 1)).toBe(true);
    expect(refused[0]?.text).toMatch(/min\.insync\.replicas/);
  });

  it('keeps each kind bounded, oldest first by n, with times in ms since the scenario started', () => {
    const apps = demo();
    apps.tick(120_000);
    const { entries } = apps.eventLog.view();
    const commits = entries.filter((e) => e.kind === 'commit');
    expect(commits.length).toBeLessThanOrEqual(150);
    expect(entries.some((e) => e.kind === 'broker' && e.type === 'brokerStarted')).toBe(true);
    for (let i = 1; i < entries.length; i++)
      expect((entries[i] as EventLogEntry).n).toBeGreaterThan((entries[i - 1] as EventLogEntry).n);
    expect(entries[0]?.atMs).toBe(0);
  });

  it("20 s after a kill the newest 30 entries still show the election and the ISR change: a group's commits fold per window", () => {
    const apps = demo();
    apps.apply({ op: 'killBroker', broker: 1 });
    apps.tick(20_000);
    const entries = apps.eventLog.view().entries;
    const newest = entries.slice(-30);
    expect(newest.some((e) => e.kind === 'election' && e.type === 'partitionStateChanged')).toBe(true);
    expect(newest.some((e) => e.kind === 'isr')).toBe(true);
    // One entry per group and window of engine time, however many members commit how often.
    const commits = entries.filter((e) => e.type === 'offsetCommitted');
    const windows = commits.map((e) => `${e.groups[0]}:${Math.floor(e.atMs / COMMIT_WINDOW_MS)}`);
    expect(new Set(windows).size).toBe(windows.length);
    for (const e of commits)
      expect(Math.floor(e.lastAtMs / COMMIT_WINDOW_MS)).toBe(Math.floor(e.atMs / COMMIT_WINDOW_MS));
    // Its words: the partitions (each at its latest offset), the commit requests, the span, where to.
    const billing = commits.filter((e) => e.groups[0] === 'billing').at(-1) as EventLogEntry;
    expect(billing.text).toMatch(
      /^group billing committed 6 partitions ×\d+ in \d+ s \(to __consumer_offsets-\d+\): orders-/,
    );
    const named = [...billing.text.matchAll(/(orders-\d+)@/g)].map((m) => m[1]);
    expect(new Set(named).size).toBe(named.length);
  });
});
