/**
 * Issue 29 item 5: a Fetch honours max_bytes and each partition's partition_max_bytes as Kafka's
 * ReplicaManager.readFromLocalLog does: partitions are read in request order, each limited to
 * min(partition_max_bytes, what is left of max_bytes); the first partition that returns records
 * gets its first batch whole even past both limits (minOneMessage), the later ones only what fits.
 * Cases from FetchRequestTest.testBrokerRespectsPartitionsOrderAndSizeLimits (maxResponseBytes
 * 800, maxPartitionBytes 190, a batch larger than the partition limit and one larger than the
 * response limit); librdkafka's test 0082 (fetch.max.bytes) fails when this is ignored.
 */
import { describe, expect, it } from 'vitest';
import { makeBatch, startCluster, TestClient } from './cluster/testing';
import type { FetchResponse } from './cluster/requests';

const MAX_RESPONSE_BYTES = 800;
const MAX_PARTITION_BYTES = 190;

function world() {
  const { cluster } = startCluster(1, 1, {});
  cluster.createTopic({ name: 'limits', partitions: 4, replicationFactor: 1 });
  cluster.tick(500);
  const client = new TestClient(cluster);
  // Partitions 0 and 1: nine small batches each; 2: one batch larger than the partition limit;
  // 3: one larger than the response limit.
  for (const p of [0, 1]) for (let i = 0; i < 9; i++) client.produce(1, 'limits', p, makeBatch([`m${i}`]), 1);
  client.produce(1, 'limits', 2, makeBatch(['x'.repeat(MAX_PARTITION_BYTES + 1)]), 1);
  client.produce(1, 'limits', 3, makeBatch(['y'.repeat(MAX_RESPONSE_BYTES + 1)]), 1);
  const fetch = (partitions: number[]) =>
    client.call<FetchResponse>(1, {
      api: 'Fetch',
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 1,
      maxBytes: MAX_RESPONSE_BYTES,
      isolationLevel: 0,
      topics: [
        {
          topic: 'limits',
          partitions: partitions.map((partition) => ({
            partition,
            currentLeaderEpoch: -1,
            fetchOffset: 0,
            lastFetchedEpoch: -1,
            logStartOffset: 0,
            partitionMaxBytes: MAX_PARTITION_BYTES,
          })),
        },
      ],
    });
  const sizes = (r: FetchResponse | undefined) => (r?.responses[0]?.partitions ?? []).map((p) => p.records.length);
  return { fetch, sizes };
}

describe('Fetch max_bytes and partition_max_bytes (ReplicaManager.readFromLocalLog)', () => {
  it('1. large batches last: every partition within its limit, the response within max_bytes', () => {
    const { fetch, sizes } = world();
    const got = sizes(fetch([0, 1, 2, 3]));
    expect(got[0]).toBeGreaterThan(0);
    expect(got[0]).toBeLessThanOrEqual(MAX_PARTITION_BYTES);
    expect(got[1]).toBeLessThanOrEqual(MAX_PARTITION_BYTES);
    // Neither large batch fits what is left, and neither partition is the first to return records.
    expect(got.slice(2)).toEqual([0, 0]);
    expect(got.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
  });

  it('3. the batch larger than the partition limit first: returned whole, the others share what is left', () => {
    const { fetch, sizes } = world();
    const got = sizes(fetch([2, 3, 0, 1]));
    expect(got[0]).toBeGreaterThan(MAX_PARTITION_BYTES);
    expect(got[0]).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(got[1]).toBe(0);
    expect(got.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
  });

  it('4. the batch larger than the response limit first: it alone is returned (minOneMessage)', () => {
    const { fetch, sizes } = world();
    const got = sizes(fetch([3, 2, 0, 1]));
    expect(got[0]).toBeGreaterThan(MAX_RESPONSE_BYTES);
    expect(got.slice(1)).toEqual([0, 0, 0]);
  });
});
