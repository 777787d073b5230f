import { describe, expect, it } from 'vitest';
import { isKafkaError, KafkaError } from '../../errors';
import { CONSUMER_DEFAULTS, consumerConfig } from './ConsumerConfig';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import type { ConsumerRecord, KafkaConsumer } from './KafkaConsumer';

const FAST = { 'group.initial.rebalance.delay.ms': 0 };
const text = (r: ConsumerRecord) => new TextDecoder().decode(r.value as Uint8Array);

/** Polls every 10 ms until `n` records came back (or maxMs passed). */
function consume(bed: GroupTestBed, c: KafkaConsumer, n: number, maxMs = 10_000): ConsumerRecord[] {
  const out: ConsumerRecord[] = [];
  bed.runUntil(() => {
    out.push(...c.poll());
    return out.length >= n;
  }, maxMs);
  return out;
}

/** Polls until poll() throws, and returns what it threw (null if it never did). */
function pollUntilThrows(bed: GroupTestBed, c: KafkaConsumer): unknown {
  let error: unknown = null;
  bed.runUntil(() => {
    try {
      c.poll();
    } catch (e) {
      error = e;
    }
    return error !== null;
  });
  return error;
}

describe('ConsumerConfig', () => {
  it("has Kafka's defaults", () => {
    // clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerConfig.java (3.x)
    expect(CONSUMER_DEFAULTS).toMatchObject({
      'session.timeout.ms': 45000,
      'heartbeat.interval.ms': 3000,
      'max.poll.interval.ms': 300000,
      'auto.commit.interval.ms': 5000,
      'auto.offset.reset': 'latest',
      'fetch.min.bytes': 1,
      'fetch.max.wait.ms': 500,
      'max.partition.fetch.bytes': 1048576,
      'fetch.max.bytes': 52428800,
      'max.poll.records': 500,
      'partition.assignment.strategy': ['range', 'cooperative-sticky'],
    });
  });

  it('rejects bad values with INVALID_CONFIG', () => {
    const bad: Record<string, unknown>[] = [
      { 'auto.offset.reset': 'smallest' },
      { 'max.poll.records': 0 },
      { 'fetch.min.bytes': -1 },
      { 'partition.assignment.strategy': ['fair'] },
      { 'session.timeout.ms': 3000 }, // heartbeat.interval.ms 3000 must be below it
      { 'enable.auto.commit': true }, // no group.id
      { 'no.such.config': 1 },
      { 'group.id': 'g', 'enable.auto.commit': 'yes' },
    ];
    for (const overrides of bad) {
      expect(() => consumerConfig(overrides), JSON.stringify(overrides)).toThrow(KafkaError);
      try {
        consumerConfig(overrides);
      } catch (e) {
        expect(isKafkaError(e, 'INVALID_CONFIG')).toBe(true);
      }
    }
    expect(
      consumerConfig({ 'group.id': 'g', 'partition.assignment.strategy': 'roundrobin,sticky' })[
        'partition.assignment.strategy'
      ],
    ).toEqual(['roundrobin', 'sticky']);
    // Without a group, auto commit is simply off.
    expect(consumerConfig({})['enable.auto.commit']).toBe(false);
  });
});

describe('KafkaConsumer', () => {
  it('assign() without a group reads from auto.offset.reset=earliest, honours max.poll.records', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('t', 1, 3);
    bed.port.produce('t', 0, ['a', 'b', 'c', 'd', 'e']);
    const c = bed.consumer('c', { 'auto.offset.reset': 'earliest', 'max.poll.records': 2 });
    c.assign([{ topic: 't', partition: 0 }]);
    const batches: string[][] = [];
    bed.runUntil(() => {
      const rs = c.poll();
      if (rs.length > 0) batches.push(rs.map(text));
      return batches.flat().length === 5;
    });
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(c.position({ topic: 't', partition: 0 })).toBe(5);
    expect(bed.ofType('consumerOffsetReset')[0]).toMatchObject({ strategy: 'earliest', offset: 0 });
    // No group: nothing to commit to.
    expect(() => c.commitSync()).toThrow(/group.id/);
  });

  it('auto.offset.reset=latest starts at the high watermark', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('t', 1, 3);
    bed.port.produce('t', 0, ['old1', 'old2']);
    const c = bed.consumer('c', {});
    c.assign([{ topic: 't', partition: 0 }]);
    bed.run(50);
    c.poll();
    bed.run(50);
    expect(c.position({ topic: 't', partition: 0 })).toBe(2);
    bed.port.produce('t', 0, ['new1']);
    expect(consume(bed, c, 1).map(text)).toEqual(['new1']);
  });

  it('auto.offset.reset=none throws NoOffsetForPartition (OFFSET_OUT_OF_RANGE) when nothing is committed', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 1, 3);
    const c = bed.consumer('c', { 'group.id': 'g', 'auto.offset.reset': 'none' });
    c.subscribe(['t']);
    const error = pollUntilThrows(bed, c);
    expect(isKafkaError(error, 'OFFSET_OUT_OF_RANGE')).toBe(true);
    expect((error as KafkaError).details.exception).toBe('NoOffsetForPartitionException');
  });

  it('a fetch position below the log start offset resets (earliest) or throws OffsetOutOfRange (none)', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('t', 1, 3);
    bed.port.produce('t', 0, ['a', 'b', 'c', 'd']);
    bed.port.deleteRecordsBefore('t', 0, 2);
    const e = bed.consumer('e', { 'auto.offset.reset': 'earliest' });
    e.assign([{ topic: 't', partition: 0 }]);
    e.seek({ topic: 't', partition: 0 }, 0);
    expect(consume(bed, e, 2).map(text)).toEqual(['c', 'd']);
    const n = bed.consumer('n', { 'auto.offset.reset': 'none' });
    n.assign([{ topic: 't', partition: 0 }]);
    n.seek({ topic: 't', partition: 0 }, 0);
    const error = pollUntilThrows(bed, n);
    expect((error as KafkaError).details.exception).toBe('OffsetOutOfRangeException');
  });

  it('reads only up to the high watermark', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('t', 1, 3);
    bed.port.produce('t', 0, ['a', 'b']);
    bed.port.holdHighWatermark('t', 0, true);
    bed.port.produce('t', 0, ['c', 'd']);
    const c = bed.consumer('c', { 'auto.offset.reset': 'earliest' });
    c.assign([{ topic: 't', partition: 0 }]);
    const got = consume(bed, c, 4, 2_000);
    expect(got.map(text)).toEqual(['a', 'b']);
    bed.port.holdHighWatermark('t', 0, false);
    expect(consume(bed, c, 2).map(text)).toEqual(['c', 'd']);
  });

  it('fetch.min.bytes holds a fetch until enough bytes or fetch.max.wait.ms', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('t', 1, 3);
    const c = bed.consumer('c', { 'auto.offset.reset': 'earliest', 'fetch.min.bytes': 100, 'fetch.max.wait.ms': 400 });
    c.assign([{ topic: 't', partition: 0 }]);
    bed.port.produce('t', 0, ['x']); // 21 bytes in this port's accounting: below fetch.min.bytes
    const got = consume(bed, c, 1);
    expect(got.map(text)).toEqual(['x']);
    const fetches = bed.ofType('groupResponseSent').filter((e) => e.api === 'Fetch');
    const requests = bed.ofType('groupRequestSent').filter((e) => e.api === 'Fetch');
    // The leader held the request for fetch.max.wait.ms before answering with too few bytes.
    const first = fetches[0];
    const req = requests.find((r) => r.arriveAtMs <= (first?.sentAtMs ?? 0));
    expect((first?.sentAtMs ?? 0) - (req?.arriveAtMs ?? 0)).toBe(400);
  });

  it('max.partition.fetch.bytes caps each partition (but the first record always comes)', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('t', 1, 3);
    const big = new Uint8Array(100);
    bed.port.produce('t', 0, [big, big, big]);
    const c = bed.consumer('c', { 'auto.offset.reset': 'earliest', 'max.partition.fetch.bytes': 150 });
    c.assign([{ topic: 't', partition: 0 }]);
    const sizes: number[] = [];
    bed.runUntil(() => {
      const n = c.poll().length;
      if (n > 0) sizes.push(n);
      return sizes.reduce((a, b) => a + b, 0) === 3;
    });
    // Each record takes 120 bytes here, so every fetch returns exactly one.
    expect(sizes).toEqual([1, 1, 1]);
  });

  it('seek() moves the position and drops buffered data', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('t', 1, 3);
    bed.port.produce('t', 0, ['a', 'b', 'c', 'd']);
    const c = bed.consumer('c', { 'auto.offset.reset': 'earliest' });
    c.assign([{ topic: 't', partition: 0 }]);
    expect(consume(bed, c, 4).map(text)).toEqual(['a', 'b', 'c', 'd']);
    c.seek({ topic: 't', partition: 0 }, 1);
    expect(consume(bed, c, 3).map(text)).toEqual(['b', 'c', 'd']);
    expect(() => c.seek({ topic: 't', partition: 9 }, 0)).toThrow(/No current assignment/);
  });

  it('enable.auto.commit commits the positions every auto.commit.interval.ms from poll()', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 1, 3);
    bed.port.produce('t', 0, ['a', 'b', 'c']);
    bed.polling(
      'c',
      { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'auto.commit.interval.ms': 1_000 },
      ['t'],
      100,
    );
    bed.run(3_500);
    const commits = bed.ofType('offsetCommitted');
    expect(commits.length).toBeGreaterThanOrEqual(2);
    expect(commits.at(-1)).toMatchObject({ groupId: 'g', topic: 't', partition: 0, offset: 3 });
    // One commit per interval, not per poll.
    const times = commits.map((e) => e.atMs);
    for (let i = 1; i < times.length; i++)
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(1_000);
  });

  it('a crashed consumer sends nothing more', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 1, 3);
    const c = bed.polling('c', { 'group.id': 'g' }, ['t'], 100);
    bed.run(2_000);
    c.crash();
    const sent = bed.ofType('groupRequestSent').filter((e) => e.from === 'c').length;
    bed.run(10_000);
    expect(bed.ofType('groupRequestSent').filter((e) => e.from === 'c').length).toBe(sent);
    expect(bed.ofType('groupRequestSent').some((e) => e.api === 'LeaveGroup')).toBe(false);
    expect(() => c.poll()).toThrow(/crashed/);
  });
});
