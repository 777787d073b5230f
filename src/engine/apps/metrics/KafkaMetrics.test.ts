import { describe, expect, it } from 'vitest';
import { MapStore } from '../../log/testSupport';
import { ClusterApps } from '../ClusterApps';
import { M1_ALPHA, Meter } from './Meter';
import { SampledRate } from './SampledRate';

const value = (apps: ClusterApps, id: string) => apps.metrics.values()[id];

/** Ticks until `done` holds (each step 500 engine ms) or fails after `maxMs`. */
function until(apps: ClusterApps, done: () => boolean, maxMs = 60_000): void {
  for (let t = 0; t < maxMs; t += 500) {
    if (done()) return;
    apps.tick(500);
  }
  throw new Error('condition not reached');
}

/** The demo cluster (3 brokers, orders with RF 3, 50 __consumer_offsets partitions), settled. */
function demo(): ClusterApps {
  const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
  apps.tick(10_000);
  return apps;
}

describe('Meter (com.yammer.metrics.core.Meter, metrics-core 2.2, as KafkaMetricsGroup.newMeter makes)', () => {
  it('ticks every 5 s: the first tick takes the instant rate, later ones move by EWMA.M1_ALPHA = 1 - exp(-5/60)', () => {
    expect(M1_ALPHA).toBeCloseTo(1 - Math.exp(-5 / 60), 15);
    const m = new Meter(0);
    m.mark(1000, 50);
    expect(m.oneMinuteRate(4999)).toBe(0); // no tick yet
    expect(m.oneMinuteRate(5000)).toBe(10); // 50 marks / 5 s
    m.mark(6000, 100);
    // 20/s this interval: rate += alpha * (20 - 10)
    expect(m.oneMinuteRate(10_000)).toBeCloseTo(10 + M1_ALPHA * 10, 12);
    expect(m.count).toBe(150);
  });

  it('decays while idle: every missed interval ticks with an instant rate of 0', () => {
    const m = new Meter(0);
    m.mark(0, 60);
    const first = m.oneMinuteRate(5000);
    expect(m.oneMinuteRate(65_000)).toBeCloseTo(first * (1 - M1_ALPHA) ** 12, 12);
  });
});

describe('SampledRate (Kafka client Rate, metrics.sample.window.ms 30000, metrics.num.samples 2)', () => {
  it('divides by at least one full window at first (Rate.windowSize), then by the time the samples span', () => {
    const r = new SampledRate();
    r.record(0);
    r.record(1000);
    r.record(2000);
    // elapsed 2 s < one full window: 30 s are added.
    expect(r.measure(2000)).toBeCloseTo(3 / 32, 12);
    r.record(31_000); // second sample
    expect(r.measure(40_000)).toBeCloseTo(4 / 40, 12);
    // At 60 s the first sample (started at 0) is obsolete: 1 record over 29 s plus the one window added.
    expect(r.measure(60_000)).toBeCloseTo(1 / 59, 12);
  });
});

describe('KafkaMetrics over the demo cluster', () => {
  it('is healthy at rest: no under-replicated or offline partition, one active controller', () => {
    const apps = demo();
    expect(value(apps, 'UnderReplicatedPartitions')).toBe(0);
    expect(value(apps, 'OfflinePartitionsCount')).toBe(0);
    expect(value(apps, 'ActiveControllerCount')).toBe(1);
  });

  it('kill a broker: UnderReplicatedPartitions counts every partition it was a replica of (the 50 __consumer_offsets ones too), and returns to 0 after its restart', () => {
    const apps = demo();
    // Every partition of the demo has RF 3 on 3 brokers: broker 2 is a replica of all of them.
    const partitions = apps.engine.topicNames().reduce((n, t) => n + apps.engine.topicState(t).partitions.length, 0);
    expect(partitions).toBe(56);
    apps.apply({ op: 'killBroker', broker: 2 });
    until(apps, () => value(apps, 'UnderReplicatedPartitions') === partitions);
    expect(value(apps, 'OfflinePartitionsCount')).toBe(0);
    expect(apps.metrics.view().sinceAction).toMatchObject({
      label: 'you killed broker 2',
      before: { UnderReplicatedPartitions: 0 },
    });
    apps.apply({ op: 'restartBroker', broker: 2 });
    until(apps, () => value(apps, 'UnderReplicatedPartitions') === 0);
    // The followers came back into the ISR: the leaders' expansions were counted.
    expect(apps.metrics.view().metrics.find((m) => m.name === 'IsrExpandsPerSec')?.count).toBe(partitions);
    expect(apps.metrics.view().metrics.find((m) => m.name === 'LeaderElectionRateAndTimeMs')?.count).toBeGreaterThan(0);
  });

  it('acks=all with 2 of 3 brokers down: FailedProduceRequestsPerSec counts NOT_ENOUGH_REPLICAS', () => {
    const apps = demo();
    apps.apply({ op: 'killBroker', broker: 2 });
    apps.apply({ op: 'killBroker', broker: 3 });
    until(apps, () => apps.engine.topicState('orders').partitions.every((p) => p.isr.length === 1));
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 30 });
    // Batches sent to broker 1 before the ISRs shrank wait in its purgatory for request.timeout.ms
    // (30 s) before the producer's next requests to it are refused.
    apps.tick(40_000);
    const failed = apps.metrics.view().metrics.find((m) => m.name === 'FailedProduceRequestsPerSec');
    expect(failed?.count).toBeGreaterThan(0);
    expect(failed?.value).toBeGreaterThan(0);
  });

  it('BytesInPerSec and MessagesInPerSec count what leaders append; a sparkline sample per engine second', () => {
    const apps = demo();
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 100 });
    apps.tick(6000);
    const v = apps.metrics.view();
    const messages = v.metrics.find((m) => m.name === 'MessagesInPerSec');
    expect(messages?.count).toBeGreaterThanOrEqual(100);
    expect(v.metrics.find((m) => m.name === 'BytesInPerSec')?.value).toBeGreaterThan(0);
    expect(messages?.series.length).toBe(16);
    expect(v.metrics.filter((m) => m.group !== null).map((m) => m.id)).toEqual([
      'records-lag-max-analytics',
      'committed-lag-analytics',
      'commit-rate-analytics',
      'records-lag-max-billing',
      'committed-lag-billing',
      'commit-rate-billing',
    ]);
  });

  it('records-lag-max is HW − fetch position (the consumer side), committed lag is HW − committed offset (describe): two numbers', () => {
    const apps = demo();
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 400 });
    let differed = false;
    for (let t = 0; t < 15_000; t += 250) {
      apps.tick(250);
      // Ground truth at this instant: each running consumer's last fetched HW minus its position
      // (SubscriptionState.partitionLag), and kafka-consumer-groups --describe's LAG.
      let fetch = 0;
      for (const c of apps.groups.consumers.values()) {
        if (c.groupId !== 'billing') continue;
        for (const a of apps.groups.consumerSnapshot(c).assignment)
          if (a.position !== null && a.highWatermark !== null) fetch = Math.max(fetch, a.highWatermark - a.position);
      }
      const committed = Math.max(0, ...apps.engine.describeGroup('billing').map((r) => r.lag ?? 0));
      const v = apps.metrics.values();
      expect(v['committed-lag-billing']).toBe(committed);
      // A Max over the kept samples: never below what a fetch would record now.
      expect(v['records-lag-max-billing']).toBeGreaterThanOrEqual(fetch);
      if (v['records-lag-max-billing'] !== v['committed-lag-billing']) differed = true;
    }
    expect(differed).toBe(true);
    const view = apps.metrics.view().metrics;
    expect(view.find((m) => m.id === 'records-lag-max-billing')?.meaning).toMatch(
      /^records-lag-max \(HW − fetch position\)/,
    );
    expect(view.find((m) => m.id === 'committed-lag-billing')?.meaning).toMatch(
      /^committed lag \(HW − committed offset\)/,
    );
  });

  it("keeps a meter's count from just before an action: a rare event's table row needs it", () => {
    const apps = demo();
    apps.apply({ op: 'killBroker', broker: 2 });
    const since = apps.metrics.view().sinceAction;
    expect(since?.label).toBe('you killed broker 2');
    const before = since?.beforeCounts.LeaderElectionRateAndTimeMs ?? -1;
    expect(before).toBeGreaterThanOrEqual(0);
    // The controller's BrokerChange comes once the session expires: the count moves past the one kept.
    until(
      apps,
      () => (apps.metrics.view().metrics.find((m) => m.name === 'LeaderElectionRateAndTimeMs')?.count ?? 0) > before,
    );
  });

  it('is deterministic: the same seed and actions give the same values', () => {
    const run = () => {
      const apps = demo();
      apps.apply({ op: 'killBroker', broker: 1 });
      apps.tick(20_000);
      return apps.metrics.view();
    };
    expect(run()).toEqual(run());
  });
});

describe('the event log and the metrics are versioned views', () => {
  it('move their version when something happened, not when they are read', () => {
    const apps = demo();
    const log = apps.eventLog.version;
    const metrics = apps.metrics.version;
    apps.eventLog.view();
    apps.metrics.view();
    expect([apps.eventLog.version, apps.metrics.version]).toEqual([log, metrics]);
    apps.apply({ op: 'killBroker', broker: 2 });
    expect(apps.eventLog.version).toBeGreaterThan(log);
    expect(apps.metrics.version).toBeGreaterThan(metrics);
    expect(apps.eventLog.view().entries.at(-1)?.type).toBe('brokerDown');
  });
});
