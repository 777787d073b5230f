import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../errors';
import { ByteReader, ByteWriter } from './bytes';
import { decodeRecordBatches } from './recordBatch';

const LOG = join(import.meta.dirname, 'fixtures', 'kafka-3.7.0', '__consumer_offsets-6', '00000000000000000000.log');

describe('ByteReader / ByteWriter', () => {
  it('keeps every value when a write makes it grow, for each fixed-width writer', () => {
    const w = new ByteWriter(1);
    for (let i = 0; i < 40; i++)
      w.writeInt8(i - 20)
        .writeInt16(300 * (i - 20))
        .writeInt32(70_000 * (i - 20))
        .writeUInt32(0xfffffff0 - i)
        .writeRaw(Uint8Array.of(i, i + 1, i + 2));
    const r = new ByteReader(w.toBytes());
    for (let i = 0; i < 40; i++) {
      expect([r.readInt8(), r.readInt16(), r.readInt32(), r.readUInt32(), ...r.readRaw(3)]).toEqual([
        i - 20,
        300 * (i - 20),
        70_000 * (i - 20),
        0xfffffff0 - i,
        i,
        i + 1,
        i + 2,
      ]);
    }
  });

  it("reads and rewrites a real OffsetCommit record of Kafka's __consumer_offsets byte for byte", () => {
    // Offset 1 of __consumer_offsets-6 (see the fixture notes): OffsetCommitKey v1 and OffsetCommitValue v3.
    const record = decodeRecordBatches(new Uint8Array(readFileSync(LOG)))[1]?.records[0];
    if (!record?.key || !record.value) throw new Error('fixture record missing');
    const k = new ByteReader(record.key);
    const key = { version: k.readInt16(), group: k.readString(), topic: k.readString(), partition: k.readInt32() };
    expect(k.remaining).toBe(0);
    expect(key).toEqual({
      version: 1,
      group: 'DEVSmileCDR',
      topic: 'batch2.work.notification.SHR_PROD.persistence',
      partition: 0,
    });
    const v = new ByteReader(record.value);
    const value = {
      version: v.readInt16(),
      offset: v.readInt64(),
      leaderEpoch: v.readInt32(),
      metadata: v.readString(),
      commitTimestamp: v.readInt64(),
    };
    expect(v.remaining).toBe(0);
    expect(value).toEqual({ version: 3, offset: 0, leaderEpoch: -1, metadata: '', commitTimestamp: 1769791663122 });

    const kw = new ByteWriter(4).writeInt16(1).writeString(key.group).writeString(key.topic).writeInt32(0);
    expect(kw.toBytes()).toEqual(record.key);
    const vw = new ByteWriter()
      .writeInt16(3)
      .writeInt64(0)
      .writeInt32(-1)
      .writeString('')
      .writeInt64(value.commitTimestamp);
    expect(vw.toBytes()).toEqual(record.value);
  });

  it('round-trips every type (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -128, max: 127 }),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.maxSafeInteger(),
        fc.option(fc.string(), { nil: null }),
        fc.option(fc.uint8Array({ maxLength: 20 }), { nil: null }),
        (i8, i32, i64, s, bytes) => {
          const w = new ByteWriter(1)
            .writeInt8(i8)
            .writeInt32(i32)
            .writeInt64(i64)
            .writeVarint(i32)
            .writeVarlong(i64)
            .writeUnsignedVarint(i32)
            .writeString(s)
            .writeCompactString(s)
            .writeBytes(bytes);
          const r = new ByteReader(w.toBytes());
          expect(r.readInt8()).toBe(i8);
          expect(r.readInt32()).toBe(i32);
          expect(r.readInt64()).toBe(i64);
          expect(r.readVarint()).toBe(i32);
          expect(r.readVarlong()).toBe(i64);
          expect(r.readUnsignedVarint()).toBe(i32);
          expect(r.readString()).toBe(s);
          expect(r.readCompactString()).toBe(s);
          expect(r.readBytes()).toEqual(bytes);
          expect(r.remaining).toBe(0);
        },
      ),
    );
  });

  it('refuses to read past its end, whatever a length field claims', () => {
    const r = new ByteReader(Uint8Array.from([0x7f, 0xff, 0x61]));
    expect(() => r.readString()).toThrow(CorruptRecordError);
    expect(() => new ByteReader(Uint8Array.from([0x7f, 0xff, 0xff, 0xff])).readBytes()).toThrow(CorruptRecordError);
    expect(() => new ByteReader(new Uint8Array(3)).readInt32()).toThrow(CorruptRecordError);
    expect(() => new ByteReader(Uint8Array.from([1, 2, 3, 0x80]), 0, 3).readRaw(4)).toThrow(CorruptRecordError);
    expect(() => new ByteReader(Uint8Array.from([0x80, 0x80, 0x01]), 0, 2).readVarint()).toThrow(CorruptRecordError);
  });
});
