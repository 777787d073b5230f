/**
 * The seeds' lookup example, built only through the log's public operations (append batches,
 * roll) and handed to the engine as a new topic's replica.
 */
import { type ManualClock, UnifiedLog, type SimpleRecord, type StoreWriter, DataPath, withRecords } from '../index';

export const SEEDS_TOPIC = 'seeds-lookup';
export const SEEDS_SEGMENTS = [0, 170410, 239430] as const;
export const SEEDS_TARGET = 170418;
/** The example's topic configs: big segments (rolls are placed by hand) and an index entry per 1200 bytes. */
export const SEEDS_CONFIGS = { 'segment.bytes': 1073741824, 'index.interval.bytes': 1200 };

/** Appends records as one RecordBatch v2, the way a producer's batch arrives at the leader. */
export function appendRecords(log: UnifiedLog, records: SimpleRecord[], now: number): void {
  log.appendAsLeader(withRecords(records, now), 0);
}

/**
 * The seeds' worked example: a partition whose segments are 00000000000000000000,
 * 00000000000000170410 and 00000000000000239430, where offset 170418 is found through the
 * `.index` entry [8, 1325] of segment 170410 (relative offset 8, byte position 1325), as the
 * seed's figure shows. (The seed numbers messages from 1 in one sentence; in Kafka, and here, a
 * segment's name is its first offset.)
 *
 * Segment 170410 starts with one-record batches whose sizes add up to 1325 bytes over the first
 * eight, and `index.interval.bytes` is 1200, so the first index entry is written for the ninth
 * batch: relative offset 8 at position 1325. Elsewhere batches hold many small records, to keep
 * the files small.
 */
export function buildSeedsLog(dir: string, clock: ManualClock, writer: StoreWriter): UnifiedLog {
  const log = new UnifiedLog({ dir, config: SEEDS_CONFIGS, clock, writer });
  const now = clock.now();
  const small = (n: number) => Array.from({ length: n }, () => ({ key: null, value: new Uint8Array(0) }));
  const fillTo = (end: number) => {
    while (log.logEndOffset < end) appendRecords(log, small(Math.min(1000, end - log.logEndOffset)), now);
  };
  fillTo(SEEDS_SEGMENTS[1]);
  log.roll();
  // Eight one-record batches of 165, 165, 165, 166, 166, 166, 166, 166 bytes = 1325 bytes.
  const one = (valueBytes: number) => [{ key: null, value: new Uint8Array(valueBytes).fill(0x6d) }];
  for (const v of [95, 95, 95, 96, 96, 96, 96, 96]) appendRecords(log, one(v), now);
  for (let i = 0; i < 192; i++) appendRecords(log, one(96), now);
  fillTo(SEEDS_SEGMENTS[2]);
  log.roll();
  fillTo(SEEDS_SEGMENTS[2] + 5000);
  log.flush();
  return log;
}

/** Adds the seeds' example as topic `seeds-lookup` (once); returns where to look. */
export function addSeedsLookupExample(
  data: DataPath,
  clock: ManualClock,
  writer: StoreWriter,
): { topic: string; partition: number; offset: number } {
  if (!data.topics().includes(SEEDS_TOPIC)) {
    const broker = data.adoptBroker();
    const log = buildSeedsLog(DataPath.adoptDir(broker, SEEDS_TOPIC, 0), clock, writer);
    data.adoptLog(SEEDS_TOPIC, 0, SEEDS_CONFIGS, log, broker);
  }
  return { topic: SEEDS_TOPIC, partition: 0, offset: SEEDS_TARGET };
}
