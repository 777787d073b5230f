import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOrCorrupt, truncateOrFlip } from '../../codec/corruptBytes.testing';
import {
  decodeAssignment,
  decodeGroupMetadataValue,
  decodeOffsetCommitValue,
  decodeOffsetsKey,
  decodeSubscription,
  encodeAssignment,
  encodeGroupMetadataValue,
  encodeOffsetCommitValue,
  encodeOffsetsKey,
  encodeSubscription,
} from './offsetsSchema';

/**
 * A real `__consumer_offsets-6` segment written by a Kafka 3.7.0 broker (group 'DEVSmileCDR'),
 * copied into testdata/ from the project's real_segments.json vectors (source: Niloufar1171/LDI-POC @ 8030792).
 */
interface RawRecord {
  offset: number;
  key: Uint8Array;
  value: Uint8Array | null;
}

function loadSegment(): RawRecord[] {
  const json = JSON.parse(readFileSync(new URL('./testdata/consumer_offsets-6.json', import.meta.url), 'utf8'));
  return walkBatches(new Uint8Array(Buffer.from(json.base64, 'base64')));
}

/** Test-only walk over uncompressed RecordBatch v2 records (61-byte header, varint records). */
function walkBatches(b: Uint8Array): RawRecord[] {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: RawRecord[] = [];
  let pos = 0;
  const varint = (): number => {
    let raw = 0;
    let shift = 0;
    for (;;) {
      const x = b[pos++] as number;
      raw += (x & 0x7f) * 2 ** shift;
      shift += 7;
      if (x < 0x80) break;
    }
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  };
  while (pos < b.length) {
    const baseOffset = Number(view.getBigInt64(pos));
    const end = pos + 12 + view.getInt32(pos + 8);
    const count = view.getInt32(pos + 57);
    pos += 61;
    for (let i = 0; i < count; i++) {
      const len = varint();
      const recordEnd = pos + len;
      pos += 1; // attributes
      varint(); // timestampDelta
      const offsetDelta = varint();
      const kl = varint();
      const key = b.slice(pos, pos + kl);
      pos += kl;
      const vl = varint();
      const value = vl < 0 ? null : b.slice(pos, pos + vl);
      pos += Math.max(vl, 0);
      out.push({ offset: baseOffset + offsetDelta, key, value });
      pos = recordEnd;
    }
    pos = end;
  }
  return out;
}

describe('__consumer_offsets schemas against a real Kafka 3.7 segment', () => {
  const records = loadSegment();

  it('holds 13 records: group metadata and offset commits of DEVSmileCDR', () => {
    expect(records.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const types = records.map((r) => decodeOffsetsKey(r.key).type);
    expect(types.filter((t) => t === 'GroupMetadataKey').length).toBe(6);
    expect(types.filter((t) => t === 'OffsetCommitKey').length).toBe(7);
  });

  it('decodes the OffsetCommitKey v1 / OffsetCommitValue v3 at offset 1', () => {
    const r = records[1] as RawRecord;
    expect(decodeOffsetsKey(r.key)).toEqual({
      type: 'OffsetCommitKey',
      version: 1,
      group: 'DEVSmileCDR',
      topic: 'batch2.work.notification.SHR_PROD.persistence',
      partition: 0,
    });
    expect(decodeOffsetCommitValue(r.value as Uint8Array)).toEqual({
      version: 3,
      offset: 0,
      leaderEpoch: -1,
      metadata: '',
      commitTimestamp: 1769791663122,
      expireTimestamp: -1,
    });
  });

  it('decodes the successive commits of TestTopicPatient-0 (offsets 0, 1, 2, 3)', () => {
    const commits = records
      .filter((r) => {
        const k = decodeOffsetsKey(r.key);
        return k.type === 'OffsetCommitKey' && k.topic === 'TestTopicPatient';
      })
      .map((r) => decodeOffsetCommitValue(r.value as Uint8Array).offset);
    expect(commits).toEqual([0, 1, 2, 3]);
  });

  it('decodes GroupMetadataKey v2 and the empty GroupMetadataValue v3 of generation 3', () => {
    const r = records[4] as RawRecord;
    expect(decodeOffsetsKey(r.key)).toEqual({ type: 'GroupMetadataKey', version: 2, group: 'DEVSmileCDR' });
    expect(decodeGroupMetadataValue(r.value as Uint8Array)).toEqual({
      version: 3,
      protocolType: 'consumer',
      generation: 3,
      protocol: null,
      leader: null,
      currentStateTimestamp: 0x19c0fd09a54,
      members: [],
    });
  });

  it('decodes a full GroupMetadataValue v3: range protocol, members and their subscriptions', () => {
    const v = decodeGroupMetadataValue((records[0] as RawRecord).value as Uint8Array);
    expect(v.protocolType).toBe('consumer');
    expect(v.generation).toBe(1);
    expect(v.protocol).toBe('range');
    expect(v.leader).toBe('consumer-DEVSmileCDR-1-0498e486-bef9-4d20-adf0-406ba0b707c1');
    expect(v.members.length).toBeGreaterThan(1);
    for (const m of v.members) {
      expect(m.memberId.startsWith(`${m.clientId}-`)).toBe(true);
      expect(m.groupInstanceId).toBeNull();
      const sub = decodeSubscription(m.subscription);
      expect(sub.topics.length).toBeGreaterThan(0);
      const asg = decodeAssignment(m.assignment);
      // Range over the subscribed topics: an assignment never names a topic the member did not subscribe to.
      for (const tp of asg.assignedPartitions) expect(sub.topics).toContain(tp.topic);
      // Re-encoding the member's protocol bytes reproduces Kafka's bytes exactly.
      expect(encodeSubscription(sub)).toEqual(m.subscription);
      expect(encodeAssignment(asg)).toEqual(m.assignment);
    }
    // The generation grows on every rebalance recorded in the partition.
    const generations = records
      .filter((r) => decodeOffsetsKey(r.key).type === 'GroupMetadataKey')
      .map((r) => decodeGroupMetadataValue(r.value as Uint8Array).generation);
    expect(generations).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('re-encodes every key and value to the same bytes', () => {
    for (const r of records) {
      const key = decodeOffsetsKey(r.key);
      expect(encodeOffsetsKey(key)).toEqual(r.key);
      const value = r.value as Uint8Array;
      const again =
        key.type === 'OffsetCommitKey'
          ? encodeOffsetCommitValue(decodeOffsetCommitValue(value))
          : encodeGroupMetadataValue(decodeGroupMetadataValue(value));
      expect(again).toEqual(value);
    }
  });
});

describe('OffsetCommitValue versions', () => {
  it('v1 carries expireTimestamp, v3 carries leaderEpoch', () => {
    const v1 = {
      version: 1 as const,
      offset: 42,
      leaderEpoch: -1,
      metadata: 'm',
      commitTimestamp: 7,
      expireTimestamp: 9,
    };
    expect(encodeOffsetCommitValue(v1).length).toBe(2 + 8 + 3 + 8 + 8);
    expect(decodeOffsetCommitValue(encodeOffsetCommitValue(v1))).toEqual(v1);
    const v3 = {
      version: 3 as const,
      offset: 42,
      leaderEpoch: 5,
      metadata: '',
      commitTimestamp: 7,
      expireTimestamp: -1,
    };
    expect(encodeOffsetCommitValue(v3).length).toBe(24);
    expect(decodeOffsetCommitValue(encodeOffsetCommitValue(v3))).toEqual(v3);
  });
});

describe('decoders on bad bytes', () => {
  const decoders = [
    decodeOffsetsKey,
    decodeOffsetCommitValue,
    decodeGroupMetadataValue,
    decodeSubscription,
    decodeAssignment,
  ];

  it('throw only CorruptRecordError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        for (const decode of decoders) {
          decodeOrCorrupt(decode, bytes);
        }
      }),
      { seed: 4, numRuns: 2000 },
    );
  });

  it('throw only CorruptRecordError on truncated and bit-flipped real records', () => {
    const records = loadSegment();
    fc.assert(
      fc.property(fc.nat(12), fc.nat(), fc.nat(255), fc.boolean(), (i, at, xor, truncate) => {
        const r = records[i] as RawRecord;
        for (const [bytes, decode] of [
          [r.key, decodeOffsetsKey],
          [
            r.value as Uint8Array,
            decodeOffsetsKey(r.key).type === 'OffsetCommitKey' ? decodeOffsetCommitValue : decodeGroupMetadataValue,
          ],
        ] as const) {
          decodeOrCorrupt(decode, truncateOrFlip(bytes, at, xor, truncate));
        }
      }),
      { seed: 6, numRuns: 1000 },
    );
  });
});
