import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { UnifiedLog } from '../log/UnifiedLog';
import { Partition } from './Partition';
import { PartitionLogReplica } from './PartitionLogReplica';
import { createTopicConfig } from './TopicConfig';
import { makeBatch } from './testing';

const T0 = 1_700_000_000_000;

/** An idempotent batch (epoch 0) of records keyed by their values. */
const idempotentBatch = (producerId: number, baseSequence: number, keys: string[]) =>
  makeBatch(keys, { producerId, producerEpoch: 0, baseSequence, timestamp: T0, key: 'value' });

describe('PartitionLogReplica and the producer state', () => {
  it("the cleaner keeps an active producer's emptied last batch, so a retry is still a duplicate after a rebuild (LogCleaner.cleanInto RETAIN_EMPTY, LogCleanerTest.testDuplicateCheckAfterCleaning)", () => {
    const config = { 'cleanup.policy': 'compact', 'segment.bytes': 4096 };
    const log = new UnifiedLog({ dir: 'c-0', config, clock: new ManualClock(T0) });
    const replica = new PartitionLogReplica(log);
    const p = new Partition('c', 0, 1, replica, createTopicConfig(config), '/d');
    const append = (bytes: Uint8Array) => {
      const info = replica.appendAsLeader(bytes, 0);
      for (const h of info.batches) p.producerState.update(h);
    };
    append(idempotentBatch(1, 0, ['a', 'b']));
    append(idempotentBatch(2, 0, ['a', 'b']));
    log.roll();
    log.updateHighWatermark(log.logEndOffset);
    expect(replica.compact(T0)?.recordsSuperseded).toBe(2);
    // Producer 1's batch [0..1] is empty now but still in the log.
    const headers = replica.batchHeaders();
    expect(headers.map((h) => [h.producerId, h.lastOffset, h.recordCount])).toEqual([
      [1, 1, 0],
      [2, 3, 2],
    ]);
    // A restart rebuilds the state from the log: producer 1's retry is recognised, not rewritten.
    p.producerState.rebuild(headers);
    expect(p.producerState.checkLeaderAppend(replica.batchHeaders()[0] as (typeof headers)[0])).toMatchObject({
      firstOffset: 0,
      lastOffset: 1,
    });
  });
});
