import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { concatBytes, decodeRecordBatches, encodeRecordBatch, readBatchHeader } from '../codec';
import { isKafkaError, type KafkaError } from '../errors';
import { createLogConfig, KAFKA_DEFAULT_LOG_CONFIG } from './LogConfig';
import { UnifiedLog } from './UnifiedLog';
import { makeBatch, makeRecords, text } from './testSupport';

const T0 = 1_700_000_000_000;

function newLog(config: Record<string, number | string> = {}, clock = new ManualClock(T0)) {
  return { log: new UnifiedLog({ dir: 'orders-0', config, clock }), clock };
}

function expectKafkaError(fn: () => unknown, code: KafkaError['code']): KafkaError {
  try {
    fn();
  } catch (e) {
    if (isKafkaError(e, code)) return e;
    throw new Error(`expected ${code}, got ${String(e)}`);
  }
  throw new Error(`expected ${code}, nothing thrown`);
}

describe('LogConfig', () => {
  it("has Kafka's defaults and spellings", () => {
    expect(KAFKA_DEFAULT_LOG_CONFIG['segment.bytes']).toBe(1073741824);
    expect(KAFKA_DEFAULT_LOG_CONFIG['segment.index.bytes']).toBe(10485760);
    expect(KAFKA_DEFAULT_LOG_CONFIG['index.interval.bytes']).toBe(4096);
    expect(KAFKA_DEFAULT_LOG_CONFIG['retention.ms']).toBe(604800000);
    expect(KAFKA_DEFAULT_LOG_CONFIG['max.message.bytes']).toBe(1048588);
    expect(KAFKA_DEFAULT_LOG_CONFIG['delete.retention.ms']).toBe(86400000);
  });

  it('validates like Kafka (INVALID_CONFIG) and accepts broker aliases, topic key winning', () => {
    expectKafkaError(() => createLogConfig({ 'segment.bytes': 13 }), 'INVALID_CONFIG');
    expectKafkaError(() => createLogConfig({ 'segment.bytes': 'lots' }), 'INVALID_CONFIG');
    expectKafkaError(() => createLogConfig({ 'cleanup.policy': 'shred' }), 'INVALID_CONFIG');
    expectKafkaError(() => createLogConfig({ 'segment.byte': 100 }), 'INVALID_CONFIG');
    expectKafkaError(() => createLogConfig({ 'flush.messages': 0 }), 'INVALID_CONFIG');
    const c = createLogConfig({ 'log.flush.interval.messages': 5, 'log.segment.bytes': '2048', 'segment.bytes': 4096 });
    expect(c['flush.messages']).toBe(5);
    expect(c['segment.bytes']).toBe(4096);
    expect(createLogConfig({ 'cleanup.policy': 'compact,delete' })['cleanup.policy']).toEqual(['compact', 'delete']);
  });
});

describe('UnifiedLog append', () => {
  it('assigns offsets by rewriting baseOffset; the CRC stays valid and the caller bytes are untouched', () => {
    const { log } = newLog();
    const batch = makeBatch(makeRecords(3));
    const copy = batch.slice();
    const a = log.appendAsLeader(batch, 4);
    const b = log.appendAsLeader(makeBatch(makeRecords(2)), 4);
    expect(a).toMatchObject({ firstOffset: 0, lastOffset: 2, numMessages: 3, rolled: null });
    expect(b).toMatchObject({ firstOffset: 3, lastOffset: 4 });
    expect(batch).toEqual(copy);
    expect(log.logEndOffset).toBe(5);
    const decoded = decodeRecordBatches(log.fetch(0, 1 << 20).records); // decode verifies every CRC
    expect(decoded.map((d) => [d.baseOffset, d.partitionLeaderEpoch])).toEqual([
      [0, 4],
      [3, 4],
    ]);
    expect(log.leaderEpochCache.entries).toEqual([{ epoch: 4, startOffset: 0 }]);
  });

  it('rejects bad input with Kafka errors and changes nothing', () => {
    const { log } = newLog({ 'max.message.bytes': 500, 'segment.bytes': 2000 });
    log.appendAsLeader(makeBatch(makeRecords(2)));
    const before = { leo: log.logEndOffset, size: log.size, segs: log.logSegments.length };
    const good = makeBatch(makeRecords(2));
    const corrupt = good.slice();
    corrupt[corrupt.length - 1] = (corrupt[corrupt.length - 1] as number) ^ 0xff;
    expectKafkaError(() => log.appendAsLeader(corrupt), 'CORRUPT_MESSAGE');
    expectKafkaError(() => log.appendAsLeader(good.subarray(0, good.length - 3)), 'CORRUPT_MESSAGE');
    expectKafkaError(() => log.appendAsLeader(makeBatch(makeRecords(1), { baseOffset: 7 })), 'INVALID_RECORD');
    expectKafkaError(() => log.appendAsLeader(new Uint8Array(0)), 'INVALID_RECORD');
    const big = expectKafkaError(() => log.appendAsLeader(makeBatch(makeRecords(5, 200))), 'MESSAGE_TOO_LARGE');
    expect(big.details).toMatchObject({ maxMessageBytes: 500 });
    // A good batch followed by a corrupt one: the whole append fails, the good one is not kept.
    const both = new Uint8Array(good.length + corrupt.length);
    both.set(good);
    both.set(corrupt, good.length);
    expectKafkaError(() => log.appendAsLeader(both), 'CORRUPT_MESSAGE');
    expect({ leo: log.logEndOffset, size: log.size, segs: log.logSegments.length }).toEqual(before);
  });

  // UnifiedLog.append (3.9): "Message batch size is ... exceeds the maximum configured segment size"
  // is a RecordBatchTooLargeException, which Errors names RECORD_LIST_TOO_LARGE (code 18), not
  // MESSAGE_TOO_LARGE (RecordTooLargeException, code 10, the max.message.bytes check).
  it('refuses an append larger than segment.bytes with RECORD_LIST_TOO_LARGE (UnifiedLog.append)', () => {
    const { log } = newLog({ 'max.message.bytes': 1500, 'segment.bytes': 2000 });
    const parts = [makeBatch(makeRecords(4, 200)), makeBatch(makeRecords(4, 200)), makeBatch(makeRecords(4, 200))];
    const e = expectKafkaError(() => log.appendAsLeader(concatBytes(parts)), 'RECORD_LIST_TOO_LARGE');
    expect(e.details).toMatchObject({ segmentBytes: 2000 });
    expect(log.logEndOffset).toBe(0);
  });

  it('rejects keyless records on a compacted topic (INVALID_RECORD)', () => {
    const { log } = newLog({ 'cleanup.policy': 'compact' });
    expectKafkaError(() => log.appendAsLeader(makeBatch([{ key: 'k', value: 'a' }, { value: 'b' }])), 'INVALID_RECORD');
    expect(log.logEndOffset).toBe(0);
  });

  it('accepts several batches in one append and indexes the append once (LocalLog.append -> LogSegment.append)', () => {
    const { log } = newLog({ 'index.interval.bytes': 100 });
    const parts = () => [makeBatch(makeRecords(3, 60)), makeBatch(makeRecords(3, 60)), makeBatch(makeRecords(3, 60))];
    const first = concatBytes(parts());
    const info = log.appendAsLeader(first);
    expect(info.batches.map((b) => b.baseOffset)).toEqual([0, 3, 6]);
    // Nothing came before the first append: no entry, whatever its size.
    expect(log.activeSegment.offsetIndex.entries).toBe(0);
    log.appendAsLeader(concatBytes(parts()));
    // One entry for the whole second append: its last offset at its first byte.
    expect(log.activeSegment.offsetIndex.entries).toBe(1);
    expect(log.activeSegment.offsetIndex.entryInfo(0)).toMatchObject({ offset: 17, position: first.length });
  });
});

describe('UnifiedLog roll', () => {
  it('rolls on segment.bytes; the new segment is named by its first offset and the old one gets its closing time index entry', () => {
    const { log } = newLog({ 'segment.bytes': 1024 });
    const infos = [];
    for (let i = 0; i < 10; i++) infos.push(log.appendAsLeader(makeBatch(makeRecords(4, 50, T0 + i))));
    const names = log.logSegments.map((s) => s.logFileName);
    expect(names[0]).toBe('00000000000000000000.log');
    expect(names.length).toBeGreaterThan(2);
    for (const s of log.logSegments) expect(s.size).toBeLessThanOrEqual(1024);
    const rolled = infos.find((i) => i.rolled);
    expect(rolled?.rolled).toMatchObject({ fromBaseOffset: 0, reason: 'segment.bytes' });
    expect(log.logSegments[1]?.baseOffset).toBe(rolled?.firstOffset);
    const first = log.logSegments[0];
    expect(first?.timeIndex.lastEntry()).toEqual({
      timestamp: first?.maxTimestampSoFar,
      offset: first?.offsetOfMaxTimestampSoFar,
    });
  });

  it('roll() replaces an empty active segment instead of leaving an empty one behind', () => {
    const { log } = newLog();
    log.appendAsLeader(makeBatch(makeRecords(2)));
    log.roll();
    log.roll(10);
    expect(log.logSegments.map((s) => s.baseOffset)).toEqual([0, 10]);
    // The new segment is named by its first offset, so the log end moves to it.
    expect(log.appendAsLeader(makeBatch(makeRecords(1))).firstOffset).toBe(10);
  });

  // UnifiedLogTest.testTimeBasedLogRollJitter (3.9): the active segment rolls once segment.ms
  // minus its rollJitterMs has passed (LogSegment.shouldRoll), not before segment.ms - max jitter.
  it('testTimeBasedLogRollJitter: segment.ms is shortened by the segment’s roll jitter', () => {
    const maxJitter = 20 * 60;
    const { log, clock } = newLog({ 'segment.ms': 60 * 60, 'segment.jitter.ms': maxJitter });
    log.appendAsLeader(makeBatch(makeRecords(1, 10, clock.now())));
    const jitter = log.rollJitterMs(log.activeSegment);
    expect(jitter).toBeGreaterThan(0);
    expect(jitter).toBeLessThan(maxJitter);
    clock.advance(60 * 60 - maxJitter);
    log.appendAsLeader(makeBatch(makeRecords(1, 10, clock.now())));
    expect(log.logSegments.length).toBe(1); // earlier than the largest jitter
    clock.advance(maxJitter - jitter + 1);
    log.appendAsLeader(makeBatch(makeRecords(1, 10, clock.now())));
    expect(log.logSegments.length).toBe(2); // segment.ms adjusted by the jitter has passed
  });

  it('rolls on segment.ms measured from the first batch timestamp', () => {
    const { log, clock } = newLog({ 'segment.ms': 1000 });
    log.appendAsLeader(makeBatch(makeRecords(1, 10, T0)));
    log.appendAsLeader(makeBatch(makeRecords(1, 10, T0 + 1000)));
    expect(log.logSegments.length).toBe(1);
    clock.advance(5000);
    const info = log.appendAsLeader(makeBatch(makeRecords(1, 10, T0 + 1001)));
    expect(info.rolled).toMatchObject({ reason: 'segment.ms', toBaseOffset: 2 });
  });

  it('rolls when the offset index is full (segment.index.bytes)', () => {
    const { log } = newLog({ 'segment.index.bytes': 16, 'index.interval.bytes': 0 });
    for (let i = 0; i < 6; i++) log.appendAsLeader(makeBatch(makeRecords(1)));
    for (const s of log.logSegments) expect(s.offsetIndex.entries).toBeLessThanOrEqual(2);
    expect(log.logSegments.length).toBeGreaterThan(1);
  });
});

describe('UnifiedLog fetch', () => {
  it('returns the batches from the one holding the offset, honours maxBytes (min one batch) and maxOffset', () => {
    const { log } = newLog();
    for (let i = 0; i < 5; i++) log.appendAsLeader(makeBatch(makeRecords(4, 20)));
    const all = log.fetch(0, 1 << 20);
    expect(all.batches.map((b) => b.baseOffset)).toEqual([0, 4, 8, 12, 16]);
    const mid = log.fetch(6, 1);
    expect(mid.batches.map((b) => b.baseOffset)).toEqual([4]);
    expect(mid.nextOffset).toBe(8);
    const capped = log.fetch(0, 1 << 20, 12);
    expect(capped.batches.map((b) => b.lastOffset)).toEqual([3, 7, 11]);
    expect(log.fetch(20, 100).records.length).toBe(0);
    const err = expectKafkaError(() => log.fetch(21, 100), 'OFFSET_OUT_OF_RANGE');
    expect(err.details).toMatchObject({ logStartOffset: 0, logEndOffset: 20 });
  });
});

describe('UnifiedLog lookup', () => {
  it('finds the record at every offset and explains the path', () => {
    const { log } = newLog({ 'segment.bytes': 2048, 'index.interval.bytes': 256 });
    for (let i = 0; i < 40; i++) log.appendAsLeader(makeBatch(makeRecords(3, 30, T0 + i, `b${i}-`)));
    for (let o = 0; o < log.logEndOffset; o++) {
      const { answer } = log.lookup(o, { trace: false });
      expect(answer.record?.offset).toBe(o);
      expect(text(answer.record?.value)?.startsWith(`b${Math.floor(o / 3)}-${o % 3}`)).toBe(true);
    }
    const { answer, trace } = log.lookup(77);
    expect(trace[0]?.kind).toBe('range-check');
    expect(trace.some((s) => s.kind === 'segment-probe')).toBe(true);
    expect(trace.at(-1)?.kind).toBe('record-found');
    for (const s of trace) expect(s.explanation).toMatch(/\S.{10,}/);
    if (answer.indexEntry) expect(answer.indexEntry.offset).toBeLessThanOrEqual(77);
    const err = expectKafkaError(() => log.lookup(log.logEndOffset), 'OFFSET_OUT_OF_RANGE');
    expect(err.details).toMatchObject({ logStartOffset: 0, logEndOffset: 120 });
    expect((err.details.trace as unknown[]).length).toBe(1);
  });

  it('lookupByTimestamp returns the first offset whose timestamp is >= the target (fetchOffsetByTimestamp)', () => {
    const { log } = newLog({ 'segment.bytes': 1024, 'index.interval.bytes': 128 });
    for (let i = 0; i < 30; i++) log.appendAsLeader(makeBatch(makeRecords(2, 20, T0 + i * 100)));
    expect(log.lookupByTimestamp(T0 + 1050).answer).toMatchObject({ offset: 22, timestamp: T0 + 1100 });
    expect(log.lookupByTimestamp(T0 + 1100).answer).toMatchObject({ offset: 22 });
    expect(log.lookupByTimestamp(T0 - 5).answer).toMatchObject({ offset: 0 });
    expect(log.lookupByTimestamp(T0 + 99_999).answer).toBeNull();
    expect(log.lookupByTimestamp(-2).answer?.offset).toBe(0);
    expect(log.lookupByTimestamp(-1).answer?.offset).toBe(60);
    // MAX_TIMESTAMP (-3, KIP-734): the record holding the largest timestamp, not its batch's last offset.
    log.appendAsLeader(makeBatch([{ timestamp: T0 + 9_000_000 }, { timestamp: T0 + 5 }, { timestamp: T0 + 6 }]), 3);
    expect(log.lookupByTimestamp(-3).answer).toMatchObject({ offset: 60, timestamp: T0 + 9_000_000, leaderEpoch: 3 });
    const { trace } = log.lookupByTimestamp(T0 + 2550);
    expect(trace.some((s) => s.kind === 'segment-timestamp-check' && s.skipped)).toBe(true);
    expect(trace.some((s) => s.kind === 'index-result' && s.file === '.timeindex')).toBe(true);
  });
});

/**
 * The seeds' worked example (seeds/000, storage chapter): three segments 00000000000000000000,
 * 00000000000000170410 and 00000000000000239430; the index of 170410 holds [3, 348] and [8, 1325];
 * reading offset 170418 picks segment 170410 by binary search over the file names, then index
 * entry [8, 1325], then reads the .log from byte 1325.
 *
 * The seed also says the file 170410 "starts at 170410+1 = 170411", numbering messages from 1.
 * Real Kafka (and glassbox) name a segment by its FIRST offset: 00000000000000170410.log holds
 * offset 170410 itself, and index entry [8, 1325] means offset 170410 + 8 = 170418 starts at 1325.
 * The seed's message layout (offset 8 B, size 4 B, crc32, magic, attributes, key length...) is the
 * pre-0.11 format; glassbox writes RecordBatch v2, whose header also opens with offset (8 B) and
 * length (4 B) — which is how the forward scan knows where each batch ends without decoding it.
 */
describe("the seeds' worked example", () => {
  /** A batch of `n` records whose encoded size is exactly `size` bytes. */
  function batchOfSize(n: number, size: number): Uint8Array {
    let pad = 10;
    for (let attempt = 0; attempt < 50; attempt++) {
      const recs = makeRecords(n, 10);
      const last = recs[n - 1];
      if (last) last.value = 'x'.repeat(pad);
      const b = makeBatch(recs);
      if (b.length === size) return b;
      pad += size - b.length;
    }
    throw new Error(`cannot build a batch of ${size} bytes`);
  }

  it('lookup(170418) lands in segment 00000000000000170410 through index entry [8, 1325]', () => {
    const { log } = newLog({ 'index.interval.bytes': 256 });
    // Segment 0: offsets 0..170409, in batches of 1000 small records.
    while (log.logEndOffset < 170410) {
      log.appendAsLeader(makeBatch(makeRecords(Math.min(1000, 170410 - log.logEndOffset), 4)));
    }
    log.roll();
    // Segment 170410: 3 records in 348 bytes, then offset 170413 alone -> index entry [3, 348];
    // then 170414..170417 ending at byte 1325, then 170418 alone -> index entry [8, 1325].
    log.appendAsLeader(batchOfSize(3, 348));
    log.appendAsLeader(makeBatch(makeRecords(1, 4)));
    log.appendAsLeader(batchOfSize(4, 1325 - 348 - log.activeSegment.size + 348));
    expect(log.activeSegment.size).toBe(1325);
    log.appendAsLeader(makeBatch([{ value: 'the message the seed reads' }]));
    while (log.logEndOffset < 239430) {
      log.appendAsLeader(makeBatch(makeRecords(Math.min(1000, 239430 - log.logEndOffset), 4)));
    }
    log.roll();
    log.appendAsLeader(makeBatch(makeRecords(10, 4)));

    expect(log.logSegments.map((s) => s.logFileName)).toEqual([
      '00000000000000000000.log',
      '00000000000000170410.log',
      '00000000000000239430.log',
    ]);
    const seg = log.logSegments[1];
    expect(seg?.offsetIndex.entryInfo(0)).toMatchObject({ relativeOffset: 3, position: 348 });
    expect(seg?.offsetIndex.entryInfo(1)).toMatchObject({ relativeOffset: 8, position: 1325 });

    const { answer, trace } = log.lookup(170418);
    expect(answer.segment.logFileName).toBe('00000000000000170410.log');
    expect(answer.indexEntry).toMatchObject({ slot: 1, relativeOffset: 8, offset: 170418, position: 1325 });
    expect(answer.position).toBe(1325);
    expect(text(answer.record?.value)).toBe('the message the seed reads');
    const probes = trace.filter((s) => s.kind === 'segment-probe');
    expect(probes.map((s) => (s.kind === 'segment-probe' ? s.baseOffset : -1))).toEqual([170410, 239430]);
    expect(trace.find((s) => s.kind === 'segment-chosen')?.explanation).toMatch(/00000000000000170410/);
    const scans = trace.filter((s) => s.kind === 'batch-header');
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ position: 1325, baseOffset: 170418, match: true });
  });
});

describe('UnifiedLog truncation and followers', () => {
  it('truncateTo removes offsets >= target, later segments, epochs and caps the high watermark', () => {
    const { log } = newLog({ 'segment.bytes': 600 });
    for (let i = 0; i < 20; i++) log.appendAsLeader(makeBatch(makeRecords(2, 40)), i < 10 ? 1 : 2);
    log.updateHighWatermark(log.logEndOffset);
    expect(log.leaderEpochCache.entries).toEqual([
      { epoch: 1, startOffset: 0 },
      { epoch: 2, startOffset: 20 },
    ]);
    const segsBefore = log.logSegments.length;
    expect(log.truncateTo(14)).toBe(true);
    expect(log.logEndOffset).toBe(14);
    expect(log.highWatermark).toBe(14);
    expect(log.logSegments.length).toBeLessThan(segsBefore);
    expect(log.leaderEpochCache.entries).toEqual([{ epoch: 1, startOffset: 0 }]);
    expect(log.truncateTo(100)).toBe(false);
    // Appends continue at the truncation point.
    expect(log.appendAsLeader(makeBatch(makeRecords(1)), 3).firstOffset).toBe(14);
  });

  it('truncateFullyAndStartAt starts an empty log at the new offset', () => {
    const { log } = newLog();
    log.appendAsLeader(makeBatch(makeRecords(5)));
    log.truncateFullyAndStartAt(1000);
    expect([log.logStartOffset, log.logEndOffset, log.highWatermark]).toEqual([1000, 1000, 1000]);
    expect(log.logSegments.map((s) => s.logFileName)).toEqual(['00000000000000001000.log']);
    expectKafkaError(() => log.lookup(5), 'OFFSET_OUT_OF_RANGE');
  });

  it('appendAsFollower keeps the leader offsets and epochs, refuses going backwards', () => {
    const leader = newLog().log;
    for (let i = 0; i < 4; i++) leader.appendAsLeader(makeBatch(makeRecords(3)), i < 2 ? 0 : 5);
    const follower = newLog().log;
    const fetched = leader.fetch(0, 1 << 20);
    follower.appendAsFollower(fetched.records);
    expect(follower.logEndOffset).toBe(12);
    expect(follower.fetch(0, 1 << 20).records).toEqual(fetched.records);
    expect(follower.leaderEpochCache.entries).toEqual(leader.leaderEpochCache.entries);
    expectKafkaError(() => follower.appendAsFollower(leader.fetch(6, 1 << 20).records), 'INVALID_RECORD');
    // KIP-101: the end offset of epoch 0 on the leader is where epoch 5 starts.
    expect(leader.leaderEpochCache.endOffsetFor(0, leader.logEndOffset)).toEqual({ epoch: 0, endOffset: 6 });
    expect(leader.leaderEpochCache.endOffsetFor(5, leader.logEndOffset)).toEqual({ epoch: 5, endOffset: 12 });
  });

  it('a fetch is a view that never changes; a follower keeps it without copying, and the leader rewriting its tail touches neither', () => {
    const leader = newLog().log;
    for (let i = 0; i < 4; i++) leader.appendAsLeader(makeBatch(makeRecords(3)), 0);
    const fetched = leader.fetch(0, 1 << 20);
    const before = fetched.records.slice();
    const follower = newLog().log;
    follower.appendAsFollower(fetched.records, true);
    expect(follower.fetch(0, 1 << 20).records.buffer).toBe(fetched.records.buffer); // shared, not copied
    // The leader loses its tail (an unclean election, say) and writes other records there.
    leader.truncateTo(3);
    for (let i = 0; i < 3; i++) leader.appendAsLeader(makeBatch(makeRecords(3, 10, undefined, 'x')), 1);
    expect(fetched.records).toEqual(before);
    expect(follower.fetch(0, 1 << 20).records).toEqual(before);
    expect(text(follower.lookup(7).answer.record?.value)).toBe('r1........');
    expect(text(leader.lookup(7).answer.record?.value)).toBe('x1........');
    // The follower takes more of the new leader after truncating to the common prefix.
    follower.truncateTo(3);
    follower.appendAsFollower(leader.fetch(3, 1 << 20).records, true);
    expect(follower.fetch(0, 1 << 20).records).toEqual(leader.fetch(0, 1 << 20).records);
  });

  it('maybeAssignEpochStartOffset records a new leader epoch at the log end before any record of it', () => {
    const { log } = newLog();
    log.appendAsLeader(makeBatch(makeRecords(3)), 0);
    log.maybeAssignEpochStartOffset(1, log.logEndOffset);
    log.maybeAssignEpochStartOffset(0, 99); // older epoch: ignored
    expect(log.leaderEpochCache.entries).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 3 },
    ]);
    expect(log.leaderEpochCache.endOffsetFor(0, log.logEndOffset)).toEqual({ epoch: 0, endOffset: 3 });
  });

  it('a follower indexes a multi-batch fetch once per append, not per batch (LogSegment.append, UnifiedLog.appendAsFollower)', () => {
    const config = { 'index.interval.bytes': 1, 'segment.bytes': 1 << 20 };
    const leader = newLog(config).log;
    for (let i = 0; i < 6; i++) leader.appendAsLeader(makeBatch(makeRecords(2)), 0);
    // The leader appended six one-batch appends: an entry for each after the first.
    expect(leader.activeSegment.offsetIndex.entries).toBe(5);
    for (const adopt of [false, true]) {
      const follower = newLog(config).log;
      // First append: three batches. Nothing indexed yet (no bytes since the last entry).
      follower.appendAsFollower(leader.fetch(0, 1 << 20, 6).records, adopt);
      expect(follower.logEndOffset).toBe(6);
      expect(follower.activeSegment.offsetIndex.entries).toBe(0);
      // Second append: three more batches, one entry: the append's last offset at its first byte.
      const second = follower.appendAsFollower(leader.fetch(6, 1 << 20).records, adopt);
      expect(second.batches.map((b) => b.lastOffset)).toEqual([7, 9, 11]);
      const idx = follower.activeSegment.offsetIndex;
      expect(idx.entries).toBe(1);
      expect(idx.entryInfo(0)).toMatchObject({ offset: 11, position: second.batches[0]?.position });
      // Lookups still find every offset.
      for (let o = 0; o < 12; o++) expect(follower.lookup(o).answer.record?.offset).toBe(o);
    }
  });

  it('a follower of a compacted leader accepts offset gaps', () => {
    const follower = newLog().log;
    const b = makeBatch(makeRecords(2), { baseOffset: 10 });
    expect(readBatchHeader(b, 0).lastOffset).toBe(11);
    follower.appendAsFollower(b);
    expect(follower.logEndOffset).toBe(12);
    expect(follower.lookup(3).answer.record?.offset).toBe(10);
  });
});

describe('encodeRecordBatch interop', () => {
  it('the log stores exactly the producer bytes except baseOffset and partitionLeaderEpoch', () => {
    const { log } = newLog();
    log.appendAsLeader(makeBatch(makeRecords(1)));
    const batch = makeBatch(makeRecords(3));
    log.appendAsLeader(batch, 9);
    const stored = log.fetch(1, 1 << 20).records;
    expect(stored.subarray(16)).toEqual(batch.subarray(16));
    const expected = encodeRecordBatch({ ...decodeRecordBatches(batch)[0]!, baseOffset: 1, partitionLeaderEpoch: 9 });
    expect(stored).toEqual(expected);
  });
});
