import { describe, expect, it } from 'vitest';
import { IllegalArgumentException, KafkaError } from '../errors';
import { CONTROL_FLAG_MASK, isControlBatch, isTransactional, TRANSACTIONAL_FLAG_MASK } from './batchLayout';
import {
  controlRecordKey,
  controlRecordTypeFromId,
  controlRecordTypeId,
  parseControlRecordType,
} from './controlRecordType';
import { crc32c } from './crc32c';
import {
  deserializeEndTxnMarker,
  deserializeEndTxnMarkerValue,
  endTransactionMarker,
  serializeEndTxnMarkerValue,
  withEndTransactionMarker,
} from './endTransactionMarker';
import { decodeRecordBatches, readBatchHeader, validateBatchCrc } from './recordBatch';
import { hex } from './hexLayout.testing';

describe('EndTransactionMarker (Kafka 3.9 EndTransactionMarkerTest)', () => {
  it('testUnknownControlTypeNotAllowed', () => {
    expect(() => endTransactionMarker('UNKNOWN', 24)).toThrow(IllegalArgumentException);
    expect(() => endTransactionMarker('LEADER_CHANGE', 24)).toThrow(IllegalArgumentException);
  });

  it('testCannotDeserializeUnknownControlType', () => {
    expect(() => deserializeEndTxnMarkerValue('UNKNOWN', new Uint8Array(0))).toThrow(IllegalArgumentException);
  });

  it('testIllegalNegativeVersion: INVALID_RECORD (InvalidRecordException)', () => {
    expect(() => deserializeEndTxnMarkerValue('ABORT', hex('ffff'))).toThrow(KafkaError);
    expect(() => deserializeEndTxnMarkerValue('ABORT', hex('ffff 00000000'))).toThrow(/Invalid version/);
  });

  it('testNotEnoughBytes', () => {
    expect(() => deserializeEndTxnMarkerValue('COMMIT', new Uint8Array(0))).toThrow(/at least 6 bytes/);
  });

  it('testSerde: value v0 is version INT16 0, coordinatorEpoch INT32', () => {
    const marker = endTransactionMarker('COMMIT', 79);
    const value = serializeEndTxnMarkerValue(marker);
    expect(value).toEqual(hex('0000 0000004f'));
    expect(deserializeEndTxnMarkerValue('COMMIT', value)).toEqual({ type: 'COMMIT', coordinatorEpoch: 79 });
  });

  it('testDeserializeNewerVersion: read as version 0, trailing data ignored', () => {
    expect(deserializeEndTxnMarkerValue('COMMIT', hex('0005 0000004f 0000'))).toEqual({
      type: 'COMMIT',
      coordinatorEpoch: 79,
    });
  });
});

describe('control record keys (ControlRecordType)', () => {
  it('key v0 is version INT16 0, type INT16: ABORT 0, COMMIT 1', () => {
    expect(controlRecordKey('ABORT')).toEqual(hex('0000 0000'));
    expect(controlRecordKey('COMMIT')).toEqual(hex('0000 0001'));
    expect(() => controlRecordKey('UNKNOWN')).toThrow(IllegalArgumentException);
    expect(controlRecordTypeId('KRAFT_VOTERS')).toBe(6);
    expect(controlRecordTypeFromId(7)).toBe('UNKNOWN');
    expect(controlRecordTypeFromId(-1)).toBe('UNKNOWN');
  });

  it('parses newer key versions as version 0 and refuses short keys and negative versions', () => {
    expect(parseControlRecordType(hex('0003 0001 ffff'))).toBe('COMMIT');
    expect(parseControlRecordType(hex('0000 0009'))).toBe('UNKNOWN');
    expect(() => parseControlRecordType(hex('0000 00'))).toThrow(/at least 4 bytes/);
    expect(() => parseControlRecordType(null)).toThrow(KafkaError);
    expect(() => parseControlRecordType(hex('8000 0001'))).toThrow(/Invalid version found for control record/);
  });
});

describe('the control batch (MemoryRecords.withEndTransactionMarker)', () => {
  const input = {
    initialOffset: 4,
    timestamp: 1632840911601,
    partitionLeaderEpoch: 0,
    producerId: 0,
    producerEpoch: 0,
    marker: endTransactionMarker('COMMIT', 4),
  };

  it('is 78 bytes: the v2 header with the transactional and control bits, one 17-byte record', () => {
    const batch = withEndTransactionMarker(input);
    expect(batch.length).toBe(78);
    const crc = new DataView(batch.buffer).getUint32(17);
    expect(batch).toEqual(
      hex(`
        0000000000000004             # baseOffset
        00000042                     # batchLength 66 = 78 - 12
        00000000                     # partitionLeaderEpoch
        02                           # magic
        ${crc.toString(16).padStart(8, '0')}
        0030                         # attributes: transactional (0x10) | control (0x20), CreateTime, no codec
        00000000                     # lastOffsetDelta
        0000017c2ce70af1             # baseTimestamp 1632840911601
        0000017c2ce70af1             # maxTimestamp
        0000000000000000             # producerId
        0000                         # producerEpoch
        ffffffff                     # baseSequence: none
        00000001                     # one record
        20                           # record length 16 (zigzag varint)
        00 00 00                     # attributes, timestampDelta 0, offsetDelta 0
        08 0000 0001                 # key: 4 bytes, version 0, type COMMIT
        0c 0000 00000004             # value: 6 bytes, version 0, coordinatorEpoch 4
        00                           # no headers
      `),
    );
    expect(crc).toBe(crc32c(batch.subarray(21)));
    const header = readBatchHeader(batch, 0);
    expect(header.attributes).toBe(TRANSACTIONAL_FLAG_MASK | CONTROL_FLAG_MASK);
    expect(isTransactional(header.attributes) && isControlBatch(header.attributes)).toBe(true);
    expect(validateBatchCrc(batch, header)).toBe(true);
    const [decoded] = decodeRecordBatches(batch);
    expect(deserializeEndTxnMarker(decoded?.records[0] ?? { key: null, value: null })).toEqual(input.marker);
  });

  // CRCs kafka-dump-log.sh printed for markers real brokers wrote (public dumps: size 78, isControl
  // true); the CRC covers attributes to the end, so it pins every field but baseOffset and epoch.
  it.each([
    { producerId: 0, producerEpoch: 0, timestamp: 1632840911601, type: 'COMMIT', epoch: 4, crc: 4234329125 },
    { producerId: 1000, producerEpoch: 21, timestamp: 1594965813942, type: 'COMMIT', epoch: 0, crc: 3102183917 },
    { producerId: 13, producerEpoch: 11, timestamp: 1700726838085, type: 'COMMIT', epoch: 0, crc: 1068357547 },
    { producerId: 2000, producerEpoch: 3, timestamp: 1709328801679, type: 'COMMIT', epoch: 0, crc: 2893569019 },
    { producerId: 1, producerEpoch: 1, timestamp: 1681907428939, type: 'ABORT', epoch: 0, crc: 3624580406 },
    { producerId: 5, producerEpoch: 0, timestamp: 1661650185562, type: 'ABORT', epoch: 0, crc: 2431180806 },
  ] as const)('matches the CRC a Kafka broker wrote: $type by producer $producerId, crc $crc', (m) => {
    const batch = withEndTransactionMarker({
      initialOffset: 17,
      timestamp: m.timestamp,
      partitionLeaderEpoch: 0,
      producerId: m.producerId,
      producerEpoch: m.producerEpoch,
      marker: endTransactionMarker(m.type, m.epoch),
    });
    expect(readBatchHeader(batch, 0).crc).toBe(m.crc);
  });

  it('refuses a marker without a producer id (MemoryRecordsBuilder.appendEndTxnMarker)', () => {
    expect(() => withEndTransactionMarker({ ...input, producerId: -1 })).toThrow(IllegalArgumentException);
  });
});
