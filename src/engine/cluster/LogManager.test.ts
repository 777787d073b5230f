import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { UnifiedLog } from '../log/UnifiedLog';
import { makeBatch } from '../log/testSupport';
import type { BrokerServices } from './BrokerServices';
import { parseOffsetCheckpoint } from './checkpoint';
import type { ClusterEvent } from './events';
import { LogManager } from './LogManager';
import { PartitionLogReplica } from './PartitionLogReplica';

const T0 = 1_700_000_000_000;

/** A LogManager over compacted PartitionLogs, recording its events and cleaner-offset-checkpoint writes. */
function bed() {
  const clock = new ManualClock(T0);
  const events: ClusterEvent[] = [];
  const files = new Map<string, string>();
  const logs = new Map<string, UnifiedLog>();
  const services = {
    scheduler: { now: () => clock.now() },
    emit: (e: ClusterEvent) => events.push(e),
    newLog: (_b: number, _d: string, topic: string, partition: number) => {
      const log = new UnifiedLog({
        dir: `${topic}-${partition}`,
        config: { 'cleanup.policy': 'compact', 'segment.bytes': 100 },
        clock,
      });
      logs.set(`${topic}-${partition}`, log);
      return new PartitionLogReplica(log);
    },
    writeCleanerCheckpoint: (_b: number, dir: string, text: string) => files.set(dir, text),
    deleteLog: () => {},
    loadLogs: () => [],
  } as unknown as BrokerServices;
  const manager = new LogManager(1, ['/var/kafka-logs'], services);
  /** `n` one-record segments of keys k0..k<n-1>, everything below the high watermark. */
  const write = (topic: string, partition: number, n: number) => {
    manager.getOrCreateLog(topic, partition);
    const log = logs.get(`${topic}-${partition}`) as UnifiedLog;
    for (let i = 0; i < n; i++) log.appendAsLeader(makeBatch([{ key: `k${i % 4}`, value: `v${i}` }]));
    log.updateHighWatermark(log.logEndOffset);
    return log;
  };
  return { manager, events, files, write };
}

describe('LogManager: the log cleaner thread and cleaner-offset-checkpoint', () => {
  it('cleans a dirty compacted log and checkpoints its cleaned end in OffsetCheckpointFile format (LogCleanerManager.doneCleaning, CheckpointFile.write)', () => {
    const { manager, events, files, write } = bed();
    write('orders', 0, 8);
    manager.compactLogs();
    const compacted = events.filter((e) => e.type === 'logCompacted');
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({ topic: 'orders', partition: 0, dirtyRatio: 1 });
    // Version 0, one entry, then `topic partition offset`: cleaned up to the active segment (7).
    expect(files.get('/var/kafka-logs')).toBe('0\n1\norders 0 7\n');
    expect(manager.cleanerCheckpointOffsets()).toEqual(new Map([['orders-0', 7]]));
  });

  it('leaves a log alone until its dirty ratio exceeds min.cleanable.dirty.ratio (LogCleanerManager.grabFilthiestCompactedLog)', () => {
    const { manager, events, files, write } = bed();
    const log = write('orders', 0, 8);
    manager.compactLogs();
    const cleanedBytes = log.logSegments.slice(0, -1).reduce((n, s) => n + s.size, 0);
    events.length = 0;
    // A little more: the dirty part stays below half the log.
    for (let i = 0; i < 2; i++) log.appendAsLeader(makeBatch([{ key: 'k0', value: `again${i}` }]));
    log.updateHighWatermark(log.logEndOffset);
    manager.compactLogs();
    expect(events.filter((e) => e.type === 'logCompacted')).toHaveLength(0);
    expect(files.get('/var/kafka-logs')).toBe('0\n1\norders 0 7\n');
    // Enough new dirty segments to outweigh the cleaned ones.
    let dirty = 0;
    while (dirty <= cleanedBytes + 200) {
      log.appendAsLeader(makeBatch([{ key: 'k1', value: `more${dirty}` }]));
      dirty = log.logSegments
        .filter((s) => s.baseOffset >= 7)
        .slice(0, -1)
        .reduce((n, s) => n + s.size, 0);
    }
    log.updateHighWatermark(log.logEndOffset);
    manager.compactLogs();
    expect(events.filter((e) => e.type === 'logCompacted')).toHaveLength(1);
    expect(parseOffsetCheckpoint(files.get('/var/kafka-logs') ?? '').get('orders-0')).toBe(
      log.activeSegment.baseOffset,
    );
  });

  it('takes the filthiest log first and each once a pass; a deleted log leaves the checkpoint (LogCleanerManager.updateCheckpoints)', () => {
    const { manager, events, files, write } = bed();
    write('a', 0, 8);
    manager.compactLogs();
    events.length = 0;
    const a = write('a', 0, 0);
    for (let i = 0; i < 14; i++) a.appendAsLeader(makeBatch([{ key: 'x', value: `${i}` }]));
    a.updateHighWatermark(a.logEndOffset);
    write('b', 0, 8);
    manager.compactLogs();
    const order = events
      .filter((e) => e.type === 'logCompacted')
      .map((e) => (e.type === 'logCompacted' ? e.topic : ''));
    // b is all dirty (ratio 1), a only partly: b goes first.
    expect(order).toEqual(['b', 'a']);
    expect(files.get('/var/kafka-logs')).toMatch(/^0\n2\na 0 \d+\nb 0 7\n$/);
    manager.deleteLog('a', 0);
    expect(files.get('/var/kafka-logs')).toBe('0\n1\nb 0 7\n');
  });

  // LogManager.truncateTo -> maybeTruncateCleanerCheckpointToActiveSegmentBaseOffset ->
  // LogCleanerManager.maybeTruncateCheckpoint (LogCleanerManagerTest.testMaybeTruncateCheckpointShouldTruncateData):
  // a checkpoint past the truncated log's active segment comes back to its base; one below stays.
  it('a truncation pulls the cleaner checkpoint back to the active segment (LogCleanerManager.maybeTruncateCheckpoint)', () => {
    const { manager, files, write } = bed();
    const log = write('orders', 0, 8);
    manager.compactLogs();
    expect(manager.cleanerCheckpointOffsets().get('orders-0')).toBe(7);
    // Above the checkpoint: nothing changes.
    for (let i = 0; i < 3; i++) log.appendAsLeader(makeBatch([{ key: 'k9', value: `late${i}` }]));
    log.truncateTo(9);
    manager.maybeTruncateCleanerCheckpoint('orders', 0);
    expect(manager.cleanerCheckpointOffsets().get('orders-0')).toBe(7);
    // Below it (an unclean election's truncation): back to the new active segment's base.
    log.truncateTo(3);
    manager.maybeTruncateCleanerCheckpoint('orders', 0);
    expect(manager.cleanerCheckpointOffsets().get('orders-0')).toBe(log.activeSegment.baseOffset);
    expect(log.activeSegment.baseOffset).toBeLessThan(7);
    expect(files.get('/var/kafka-logs')).toBe(`0\n1\norders 0 ${log.activeSegment.baseOffset}\n`);
  });

  it('reads a checkpoint back from the log dir when the broker restarts (LogCleanerManager.allCleanerCheckpoints)', () => {
    const { manager, events, write } = bed();
    manager.loadCleanerCheckpoint('/var/kafka-logs', '0\n1\norders 0 7\n');
    expect(manager.cleanerCheckpointOffsets()).toEqual(new Map([['orders-0', 7]]));
    // Already clean up to 7 of 8 segments: nothing to do.
    write('orders', 0, 8);
    manager.compactLogs();
    expect(events.filter((e) => e.type === 'logCompacted')).toHaveLength(0);
    // A malformed file counts as missing: everything is dirty again.
    manager.loadCleanerCheckpoint('/var/kafka-logs', '1\n1\norders 0 7\n');
    manager.compactLogs();
    expect(events.filter((e) => e.type === 'logCompacted')).toHaveLength(1);
  });
});
