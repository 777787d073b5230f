import { describe, expect, it } from 'vitest';
import type { ProduceResponse } from './requests';
import { makeBatch, QUICK_FAILOVER_CONFIG, startCluster, TestClient } from './testing';

function setup(replicationFactor: number, minInsyncReplicas: number) {
  const { cluster, events } = startCluster(11, 3, { ...QUICK_FAILOVER_CONFIG, 'replica.fetch.backoff.ms': 100 });
  cluster.createTopic({
    name: 't',
    partitions: 1,
    replicationFactor,
    fixedStartIndex: 0,
    configs: { 'min.insync.replicas': minInsyncReplicas },
  });
  cluster.tick(300);
  const leader = () => cluster.broker(1).replicaManager.partitions.get('t-0');
  return { cluster, events, client: new TestClient(cluster), leader };
}

describe('min.insync.replicas above the replication factor', () => {
  // Kafka 3.9 Partition.effectiveMinIsr: min(min.insync.replicas, replication factor), used by
  // appendRecordsToLeader (acks=all refused below it), isUnderMinIsr (maybeIncrementLeaderHW) and
  // checkEnoughReplicasReachOffset. Nothing refuses a min.insync.replicas above the RF.
  it('RF 2, min.insync.replicas 3: acks=1 advances the HW and acks=all succeeds', () => {
    const { cluster, client, leader } = setup(2, 3);
    expect(cluster.partitionState('t', 0)?.isr).toEqual([1, 2]);
    expect(leader()?.effectiveMinIsr()).toBe(2);
    expect(client.produce(1, 't', 0, makeBatch(['a']), 1)?.errorCode).toBe('NONE');
    cluster.tick(300);
    expect(leader()?.highWatermark).toBe(1);
    const all = client.produce(1, 't', 0, makeBatch(['b', 'c']), -1);
    expect(all?.errorCode).toBe('NONE');
    expect(all?.baseOffset).toBe(1);
    expect(leader()?.highWatermark).toBe(3);
  });

  it('RF 2, min.insync.replicas 3: acks=all is still refused (NOT_ENOUGH_REPLICAS) once the ISR is [1]', () => {
    const { cluster, client, leader } = setup(2, 3);
    cluster.killBroker(2);
    cluster.tick(1500);
    expect(cluster.partitionState('t', 0)?.isr).toEqual([1]);
    const r = client.produce(1, 't', 0, makeBatch(['a']), -1);
    expect(r?.errorCode).toBe('NOT_ENOUGH_REPLICAS');
    expect(r?.errorMessage).toContain('min.isr requirement of 2');
    expect(leader()?.logEndOffset()).toBe(0);
  });
});

describe('the ISR falls below min.insync.replicas after an acks=all append', () => {
  /**
   * Appended on the leader while the ISR was [1,2,3]; the followers die before fetching it, so the
   * controller shrinks the ISR to [1]. Kafka 3.9: maybeIncrementLeaderHW does not move the HW while
   * isUnderMinIsr, and checkEnoughReplicasReachOffset answers "keep waiting" (false, NONE) while the
   * HW is below the batch's end, so DelayedProduce either completes when the ISR recovers or
   * expires with REQUEST_TIMED_OUT; NOT_ENOUGH_REPLICAS_AFTER_APPEND comes only once the HW has
   * reached the batch while the maximal ISR is below min ISR.
   */
  function appendThenLoseFollowers(timeoutMs: number) {
    const s = setup(3, 2);
    expect(s.client.produce(1, 't', 0, makeBatch(['a']), -1)?.errorCode).toBe('NONE');
    s.cluster.tick(100);
    const cid = s.client.send(1, {
      api: 'Produce',
      transactionalId: null,
      acks: -1,
      timeoutMs,
      topicData: [{ topic: 't', partitions: [{ partition: 0, records: makeBatch(['b']) }] }],
    });
    const appended = () => s.events.some((e) => e.type === 'produceHandled' && e.baseOffset === 1);
    for (let i = 0; i < 1000 && !appended(); i++) s.cluster.tick(1);
    expect(appended()).toBe(true);
    s.cluster.killBroker(2);
    s.cluster.killBroker(3);
    s.cluster.tick(1500);
    expect(s.cluster.partitionState('t', 0)?.isr).toEqual([1]);
    return { ...s, response: () => s.client.responses.get(cid) as ProduceResponse | undefined };
  }

  it('the HW stays frozen and the request ends with REQUEST_TIMED_OUT', () => {
    const { cluster, leader, response } = appendThenLoseFollowers(5000);
    expect(leader()?.logEndOffset()).toBe(2);
    expect(leader()?.highWatermark).toBe(1);
    expect(response()).toBeUndefined(); // still waiting in the purgatory
    cluster.tick(4000);
    expect(leader()?.highWatermark).toBe(1);
    expect(response()?.responses[0]?.partitions[0]?.errorCode).toBe('REQUEST_TIMED_OUT');
  });

  it('the request completes with NONE once a follower rejoins the ISR before the timeout', () => {
    const { cluster, leader, response } = appendThenLoseFollowers(30_000);
    expect(response()).toBeUndefined();
    cluster.restartBroker(2);
    for (let i = 0; i < 10_000 && !response(); i += 10) cluster.tick(10);
    expect(cluster.partitionState('t', 0)?.isr).toEqual([1, 2]);
    expect(leader()?.highWatermark).toBe(2);
    const r = response()?.responses[0]?.partitions[0];
    expect(r?.errorCode).toBe('NONE');
    expect(r?.baseOffset).toBe(1);
  });
});
