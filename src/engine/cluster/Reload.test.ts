import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { UnifiedLog } from '../log/UnifiedLog';
import { StoreWriter } from '../log/StoreWriter';
import type { Store } from '../Store';
import { formatReplicationOffsetCheckpoint, parseReplicationOffsetCheckpoint } from './checkpoint';
import { Cluster } from './Cluster';
import { PartitionLogReplica } from './PartitionLogReplica';
import { makeBatch, TestClient } from './testing';
import { MapStore } from '../log/testSupport';

const dirOf = (b: number, d: string, t: string, p: number) => `broker-${b}${d}/${t}-${p}`;

function cluster(store: Store, clock: ManualClock) {
  const writer = new StoreWriter(store);
  const c: Cluster = new Cluster({
    clock,
    seed: 1,
    emit: () => {},
    brokerConfig: { 'zookeeper.session.timeout.ms': 1000, 'replica.high.watermark.checkpoint.interval.ms': 500 },
    topicDefaults: { 'flush.messages': 1 },
    logFactory: (b, d, t, p) =>
      new PartitionLogReplica(
        new UnifiedLog({ dir: dirOf(b, d, t, p), clock, writer, config: { 'flush.messages': 1 } }),
      ),
    onHighWatermarkCheckpoint: (b, d, text) =>
      writer.submit({
        op: 'write',
        path: `broker-${b}${d}/replication-offset-checkpoint`,
        bytes: new TextEncoder().encode(text),
      }),
  });
  return c;
}

const settle = async () => {
  for (let i = 0; i < 50; i++) await Promise.resolve();
};

describe('reloading a cluster from its Store', () => {
  it('formats and parses replication-offset-checkpoint as Kafka does', () => {
    const text = formatReplicationOffsetCheckpoint([
      { topic: 'b', partition: 1, offset: 7 },
      { topic: 'a', partition: 0, offset: 3 },
    ]);
    expect(text).toBe('0\n2\na 0 3\nb 1 7\n');
    expect([...parseReplicationOffsetCheckpoint(text)]).toEqual([
      ['a-0', 3],
      ['b-1', 7],
    ]);
    expect(parseReplicationOffsetCheckpoint('0\n5\na 0 3\n').size).toBe(0);
  });

  it('persistent znodes + recovered logs + checkpointed HWs bring the same cluster back', async () => {
    const store = new MapStore();
    const clock = new ManualClock(0);
    const before = cluster(store, clock);
    for (const id of [1, 2, 3]) before.addBroker({ id });
    before.tick(200);
    before.createTopic({ name: 't', partitions: 2, replicationFactor: 3, fixedStartIndex: 0 });
    before.tick(300);
    const client = new TestClient(before);
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b', 'c']), -1)?.errorCode).toBe('NONE');
    expect(client.produce(2, 't', 1, makeBatch(['d']), -1)?.errorCode).toBe('NONE');
    before.tick(1000);
    await settle();
    const znodes = before.zk.snapshot();

    // A new page: same Store, fresh engine objects.
    const after = cluster(store, clock);
    after.zk.restore(znodes);
    for (const id of [1, 2, 3]) after.addBroker({ id }, { start: false });
    for (const id of [1, 2, 3]) {
      const cp = await store.read(`broker-${id}/var/kafka-logs/replication-offset-checkpoint`);
      const hws = parseReplicationOffsetCheckpoint(new TextDecoder().decode(cp ?? new Uint8Array()));
      for (const p of [0, 1]) {
        const { log } = await UnifiedLog.load(
          store,
          dirOf(id, '/var/kafka-logs', 't', p),
          { 'flush.messages': 1 },
          clock,
        );
        after.hostRecoveredLog(id, '/var/kafka-logs', 't', p, new PartitionLogReplica(log), hws.get(`t-${p}`) ?? 0);
      }
    }
    for (const id of [1, 2, 3]) after.startBroker(id);
    after.tick(2000);
    expect(after.topicNames()).toEqual(['t']);
    expect(after.partitionState('t', 0)?.leader).toBe(1);
    expect(after.partitionState('t', 1)?.leader).toBe(2);
    expect(after.controllerEpoch()).toBe(2);
    for (const id of [1, 2, 3]) {
      const p0 = after.broker(id).replicaManager.partitions.get('t-0');
      expect(p0?.logEndOffset()).toBe(3);
      expect(p0?.highWatermark).toBe(3);
    }
    const client2 = new TestClient(after);
    expect(client2.produce(1, 't', 0, makeBatch(['e']), -1)).toMatchObject({ errorCode: 'NONE', baseOffset: 3 });
  });
});
