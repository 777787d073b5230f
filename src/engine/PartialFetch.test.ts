/**
 * Issue 25: a Fetch is a byte slice, not a batch list. Kafka's LogSegment.read returns
 * FileRecords.slice(startPosition, min(maxPosition - startPosition, adjustedMaxSize)), so a
 * response may end with the first bytes of a batch that did not fit max_bytes or
 * partition_max_bytes (and a partition after the first, without minOneMessage, may be nothing but
 * such bytes). Readers stop at the incomplete batch: ByteBufferLogInputStream, the consumer's
 * CompletedFetch, the follower's append (UnifiedLog.trimInvalidBytes).
 */
import { describe, expect, it } from 'vitest';
import { toPortRecords } from './clients/consumer/portRecords';
import { makeBatch, startCluster, TestClient } from './cluster/testing';
import type { FetchResponse } from './cluster/requests';
import { wholeBatches, wholeBatchesSize } from './codec';
import { LogSegment } from './log/LogSegment';
import { UnifiedLog } from './log/UnifiedLog';
import { ManualClock } from './Clock';
import { makeBatch as makeLogBatch, makeRecords } from './log/testSupport';

/** Three batches of two records, offsets 0..5, laid end to end. */
function threeBatches(): { bytes: Uint8Array; sizes: number[] } {
  const parts = [0, 2, 4].map((baseOffset) => makeLogBatch(makeRecords(2, 20), { baseOffset }));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, sizes: parts.map((p) => p.length) };
}

function segmentOf(bytes: Uint8Array): LogSegment {
  const seg = new LogSegment(0, 4096, 1 << 20, 0);
  let pos = 0;
  for (const base of [0, 2, 4]) {
    const size = threeBatches().sizes[base / 2] as number;
    seg.appendBatch(bytes, pos, size, base, base + 1, 0, null, 0);
    pos += size;
  }
  return seg;
}

describe('a fetch may end inside a batch (issue 25)', () => {
  it('ByteBufferLogInputStreamTest.iteratorIgnoresIncompleteEntries: whole batches only', () => {
    const { bytes, sizes } = threeBatches();
    const two = (sizes[0] as number) + (sizes[1] as number);
    expect(wholeBatchesSize(bytes.subarray(0, two + 20))).toBe(two);
    // Fewer bytes than a batch's length field: also an incomplete entry.
    expect(wholeBatchesSize(bytes.subarray(0, two + 5))).toBe(two);
    expect(wholeBatchesSize(bytes)).toBe(bytes.length);
    expect(wholeBatches(bytes.subarray(0, 7)).length).toBe(0);
  });

  it('LogSegmentTest: a read of maxSize bytes is a slice ending inside the batch that does not fit', () => {
    const { bytes, sizes } = threeBatches();
    const seg = segmentOf(bytes);
    const [a, b] = sizes as [number, number, number];
    const read = seg.read(0, a + b + 10);
    expect(read?.batches.map((h) => h.baseOffset)).toEqual([0, 2]);
    expect(read?.endPosition).toBe(a + b);
    expect(read?.sliceEnd).toBe(a + b + 10);
    // minOneMessage: adjustedMaxSize is the first batch's size when maxSize is smaller.
    expect(seg.read(0, 10)?.sliceEnd).toBe(a);
    // Without it, maxSize bytes of the first batch (Kafka's firstEntryIncomplete).
    const partial = seg.read(0, 10, Number.MAX_SAFE_INTEGER, false);
    expect(partial?.batches).toEqual([]);
    expect(partial?.sliceEnd).toBe(10);
    // maxPosition (the batch holding maxOffset) bounds the slice at a batch boundary.
    expect(seg.read(0, 1 << 20, 4)?.sliceEnd).toBe(a + b);
  });

  it('UnifiedLogTest: a follower appends only the whole batches of a fetch that ends mid-batch', () => {
    const clock = new ManualClock(0);
    const leader = new UnifiedLog({ dir: 'orders-0', config: {}, clock });
    for (let i = 0; i < 3; i++) leader.appendAsLeader(makeLogBatch(makeRecords(2, 20)));
    const info = leader.fetch(0, 150);
    const whole = info.batches.reduce((n, h) => n + h.sizeInBytes, 0);
    expect(info.records.length).toBe(150);
    expect(whole).toBeLessThan(150);
    expect(UnifiedLog.decode(info).map((b) => b.baseOffset)).toEqual(info.batches.map((h) => h.baseOffset));
    const follower = new UnifiedLog({ dir: 'orders-0', config: {}, clock: new ManualClock(0) });
    const appended = follower.appendAsFollower(info.records);
    expect(appended.validBytes).toBe(whole);
    expect(follower.logEndOffset).toBe(info.nextOffset);
  });

  it('FetcherTest: the consumer hands out the records of whole batches only (CompletedFetch)', () => {
    const { bytes, sizes } = threeBatches();
    const two = (sizes[0] as number) + (sizes[1] as number);
    expect(toPortRecords(bytes.subarray(0, two + 30)).map((r) => r.offset)).toEqual([0, 1, 2, 3]);
    expect(toPortRecords(bytes.subarray(0, 30))).toEqual([]);
  });

  it('ReplicaManagerTest (readFromLocalLog): a fetch of two partitions whose second batch does not fit returns its first bytes', () => {
    const { cluster } = startCluster(1, 1, {});
    cluster.createTopic({ name: 't', partitions: 2, replicationFactor: 1 });
    cluster.tick(500);
    const client = new TestClient(cluster);
    for (const p of [0, 1]) client.produce(1, 't', p, makeBatch(['v'.repeat(100)]), 1);
    const size =
      cluster.brokers
        .get(1)
        ?.replicaManager.partitions.get('t-0')
        ?.log.read(0, 1 << 20, 1).length ?? 0;
    expect(size).toBeGreaterThan(100);
    const res = client.call<FetchResponse>(1, {
      api: 'Fetch',
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 1,
      maxBytes: size + 30,
      isolationLevel: 0,
      topics: [
        {
          topic: 't',
          partitions: [0, 1].map((partition) => ({
            partition,
            currentLeaderEpoch: -1,
            fetchOffset: 0,
            lastFetchedEpoch: -1,
            logStartOffset: 0,
            partitionMaxBytes: 1 << 20,
          })),
        },
      ],
    });
    const [p0, p1] = res?.responses[0]?.partitions ?? [];
    expect(p0?.records.length).toBe(size);
    // What is left of max_bytes, 30 bytes: the start of partition 1's batch, which no client reads.
    expect(p1?.records.length).toBe(30);
    const leaderBytes = cluster.brokers
      .get(1)
      ?.replicaManager.partitions.get('t-1')
      ?.log.read(0, 1 << 20, 1);
    expect(p1?.records).toEqual(leaderBytes?.subarray(0, 30));
    expect(toPortRecords(p1?.records ?? new Uint8Array())).toEqual([]);
  });

  it('ReplicaFetcherThreadTest: followers fetching with a small replica.fetch.max.bytes append only whole batches and catch up', () => {
    const { cluster } = startCluster(3, 2, { 'replica.fetch.max.bytes': 150 });
    cluster.createTopic({ name: 'r', partitions: 1, replicationFactor: 2 });
    cluster.tick(500);
    const leaderId = cluster.partitionState('r', 0)?.leader ?? 1;
    const client = new TestClient(cluster);
    for (let i = 0; i < 6; i++) client.produce(leaderId, 'r', 0, makeBatch([`m${i}`.repeat(20)]), 1);
    // The leader answers the follower's 150 bytes with a slice ending inside a batch.
    const leaderLog = cluster.brokers.get(leaderId)?.replicaManager.partitions.get('r-0')?.log;
    const slice = leaderLog?.read(0, 150, leaderLog.logEndOffset()) ?? new Uint8Array();
    expect(slice.length).toBe(150);
    expect(wholeBatchesSize(slice)).toBeLessThan(150);
    cluster.tick(5_000);
    const followerId = leaderId === 1 ? 2 : 1;
    const followerLog = cluster.brokers.get(followerId)?.replicaManager.partitions.get('r-0')?.log;
    expect(followerLog?.logEndOffset()).toBe(6);
    expect(followerLog?.batchHeaders().map((h) => [h.baseOffset, h.crc])).toEqual(
      leaderLog?.batchHeaders().map((h) => [h.baseOffset, h.crc]),
    );
  });
});
