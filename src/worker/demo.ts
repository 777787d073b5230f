/**
 * The clusters a page starts from: the demo a first visit sees, and the seeds' lookup example.
 * Both are built only through the engine's public operations (create a topic, append batches,
 * roll), the way a producer and an operator would build them.
 */
import { DEMO_TOPIC, type LogCluster, type SendRecord, utf8 } from './LogCluster';

const ITEMS = ['espresso', 'flat white', 'croissant', 'bagel', 'matcha', 'cortado', 'muffin', 'chai'];

/** The demo: topic `orders` (3 partitions, small segments so rolls are visible) with keyed orders. */
export function buildDemo(cluster: LogCluster, orders = 450): void {
  cluster.createTopic(DEMO_TOPIC);
  for (let i = 0; i < orders; i += 15) {
    const byPartition = new Map<number, SendRecord[]>();
    for (let j = i; j < Math.min(orders, i + 15); j++) {
      const key = utf8(`user-${j % 24}`);
      const value = utf8(
        JSON.stringify({ order: j, item: ITEMS[j % ITEMS.length], qty: 1 + (j % 3), note: 'demo order from glassbox' }),
      );
      const p = cluster.choosePartition(DEMO_TOPIC.name, key).partition;
      let list = byPartition.get(p);
      if (!list) byPartition.set(p, (list = []));
      list.push({ key, value, headers: [] });
    }
    for (const [p, list] of byPartition) cluster.appendBatch(DEMO_TOPIC.name, p, list);
  }
  cluster.flushAll();
}

export const SEEDS_TOPIC = 'seeds-lookup';
export const SEEDS_SEGMENTS = [0, 170410, 239430] as const;
export const SEEDS_TARGET = 170418;

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
export function buildSeedsLookupExample(cluster: LogCluster): { topic: string; partition: number; offset: number } {
  if (cluster.topicNames().includes(SEEDS_TOPIC)) return { topic: SEEDS_TOPIC, partition: 0, offset: SEEDS_TARGET };
  cluster.createTopic({ name: SEEDS_TOPIC, partitions: 1, config: { 'index.interval.bytes': 1200 } });
  const log = cluster.log(SEEDS_TOPIC, 0);
  const small = (n: number) => Array.from({ length: n }, () => ({ key: null, value: new Uint8Array(0), headers: [] }));
  const fillTo = (end: number) => {
    while (log.logEndOffset < end) cluster.appendBatch(SEEDS_TOPIC, 0, small(Math.min(1000, end - log.logEndOffset)));
  };
  fillTo(SEEDS_SEGMENTS[1]);
  log.roll();
  // Eight one-record batches of 165, 165, 165, 166, 166, 166, 166, 166 bytes = 1325 bytes.
  const one = (valueBytes: number) => [{ key: null, value: new Uint8Array(valueBytes).fill(0x6d), headers: [] }];
  for (const v of [95, 95, 95, 96, 96, 96, 96, 96]) cluster.appendBatch(SEEDS_TOPIC, 0, one(v));
  for (let i = 0; i < 192; i++) cluster.appendBatch(SEEDS_TOPIC, 0, one(96));
  fillTo(SEEDS_SEGMENTS[2]);
  log.roll();
  fillTo(SEEDS_SEGMENTS[2] + 5000);
  log.flush();
  cluster.version++;
  return { topic: SEEDS_TOPIC, partition: 0, offset: SEEDS_TARGET };
}
