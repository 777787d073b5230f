/**
 * Issue 29 item 5: a Fetch honours max_bytes and each partition's partition_max_bytes as Kafka's
 * ReplicaManager.readFromLocalLog does: partitions are read in request order, each limited to
 * min(partition_max_bytes, what is left of max_bytes); the first partition that returns records
 * gets its first batch whole even past both limits (minOneMessage), the later ones only what fits —
 * a byte slice that may end inside a batch (LogSegment.read), whose first bytes the client drops.
 * Cases from FetchRequestTest.testBrokerRespectsPartitionsOrderAndSizeLimits (maxResponseBytes
 * 800, maxPartitionBytes 190, a batch larger than the partition limit and one larger than the
 * response limit); librdkafka's test 0082 (fetch.max.bytes) fails when this is ignored.
 */
import { describe, expect, it } from 'vitest';
import { makeBatch, startCluster, TestClient } from './cluster/testing';
import type { FetchResponse } from './cluster/requests';
import { wholeBatchesSize } from './codec';

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
  // FetchRequestTest's records(partitionData): the whole batches a client reads from each partition.
  const whole = (r: FetchResponse | undefined) =>
    (r?.responses[0]?.partitions ?? []).map((p) => wholeBatchesSize(p.records));
  return { fetch, sizes, whole };
}

describe('Fetch max_bytes and partition_max_bytes (ReplicaManager.readFromLocalLog)', () => {
  it('1. large batches last: every partition within its limit, the response within max_bytes', () => {
    const { fetch, sizes, whole } = world();
    const response = fetch([0, 1, 2, 3]);
    const got = whole(response);
    expect(got[0]).toBeGreaterThan(0);
    expect(got[0]).toBeLessThanOrEqual(MAX_PARTITION_BYTES);
    expect(got[1]).toBeLessThanOrEqual(MAX_PARTITION_BYTES);
    // Neither large batch fits what is left, and neither partition is the first to return records.
    expect(got.slice(2)).toEqual([0, 0]);
    // Each partition's slice is cut at partition_max_bytes (190 x 4 = 760 <= 800): the small
    // batches end with a partial one, the large ones are only their first 190 bytes.
    expect(sizes(response)).toEqual([190, 190, 190, 190]);
  });

  it('3. the batch larger than the partition limit first: returned whole, the others share what is left', () => {
    const { fetch, sizes, whole } = world();
    const response = fetch([2, 3, 0, 1]);
    const got = whole(response);
    expect(got[0]).toBeGreaterThan(MAX_PARTITION_BYTES);
    expect(got[0]).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(got[1]).toBe(0);
    expect(got.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    // The large batch's partition gets the first min(190, what is left) bytes of its batch, and
    // the response's bytes add up to max_bytes exactly once partitions are cut mid-batch.
    const raw = sizes(response);
    expect(raw[0]).toBe(got[0]);
    expect(raw[1]).toBe(Math.min(MAX_PARTITION_BYTES, MAX_RESPONSE_BYTES - (raw[0] as number)));
    expect(raw.reduce((a, b) => a + b, 0)).toBe(MAX_RESPONSE_BYTES);
  });

  it('4. the batch larger than the response limit first: it alone is returned (minOneMessage)', () => {
    const { fetch, sizes } = world();
    const got = sizes(fetch([3, 2, 0, 1]));
    expect(got[0]).toBeGreaterThan(MAX_RESPONSE_BYTES);
    expect(got.slice(1)).toEqual([0, 0, 0]);
  });
});
