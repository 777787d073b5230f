import { describe, expect, it } from 'vitest';
import { MAX_PRODUCE_MANY_RECORDS } from '../../worker/client';
import {
  checkGroupId,
  checkWholeNumber,
  checkLookupOffset,
  checkLookupTimestamp,
  checkProducerSetting,
  checkRate,
  checkRecordCount,
  formHeaders,
} from './validate';

const refused = (c: { ok: boolean; message?: string }) => (c.ok ? null : (c as { message: string }).message);

describe('Send N: a whole number of records, never clamped', () => {
  it('refuses 0, -1, empty, fractions and exponents, with the range', () => {
    for (const text of ['0', '-1', '', '1.5', '1e3', ' 5', 'abc']) {
      const m = refused(checkRecordCount(text, MAX_PRODUCE_MANY_RECORDS));
      expect(m, text).toMatch(/^INVALID_REQUEST: Send N sends a whole number of records from 1 to 1,000,000/);
    }
  });

  it('refuses more than the worker accepts instead of turning 10,000,000 into 1,000,000', () => {
    expect(refused(checkRecordCount('10000000', MAX_PRODUCE_MANY_RECORDS))).toContain('"10000000" is not one');
    expect(checkRecordCount(String(MAX_PRODUCE_MANY_RECORDS), MAX_PRODUCE_MANY_RECORDS)).toEqual({
      ok: true,
      value: MAX_PRODUCE_MANY_RECORDS,
    });
    expect(checkRecordCount('1', MAX_PRODUCE_MANY_RECORDS)).toEqual({ ok: true, value: 1 });
  });
});

describe("linger.ms and batch.size as Kafka's ConfigDef checks them", () => {
  it('-5 gets ConfigException\'s "Value must be at least 0" (ConfigDef.Range.atLeast(0) in ProducerConfig)', () => {
    expect(refused(checkProducerSetting('linger.ms', '-5'))).toBe(
      'INVALID_CONFIG: Invalid value -5 for configuration linger.ms: Value must be at least 0',
    );
    expect(refused(checkProducerSetting('batch.size', '-1'))).toBe(
      'INVALID_CONFIG: Invalid value -1 for configuration batch.size: Value must be at least 0',
    );
  });

  it('text that is not a LONG / INT is "Not a number of type ..." (ConfigDef.parseType)', () => {
    expect(refused(checkProducerSetting('linger.ms', '2.5'))).toBe(
      'INVALID_CONFIG: Invalid value 2.5 for configuration linger.ms: Not a number of type LONG',
    );
    expect(refused(checkProducerSetting('linger.ms', ''))).toContain('Not a number of type LONG');
    // batch.size is an INT: 2^31 does not parse.
    expect(refused(checkProducerSetting('batch.size', '2147483648'))).toContain('Not a number of type INT');
  });

  it('accepts 0 and whole numbers, trimmed as ConfigDef trims strings', () => {
    expect(checkProducerSetting('linger.ms', '0')).toEqual({ ok: true, value: 0 });
    expect(checkProducerSetting('batch.size', ' 16384 ')).toEqual({ ok: true, value: 16384 });
  });
});

describe('a new group id', () => {
  it('blank is INVALID_GROUP_ID, as the GroupCoordinator answers an empty group id', () => {
    expect(refused(checkGroupId(''))).toMatch(/^INVALID_GROUP_ID: /);
    expect(refused(checkGroupId('   '))).toMatch(/^INVALID_GROUP_ID: /);
    // Taken exactly as typed, never trimmed into another id: spaces are refused by name.
    expect(refused(checkGroupId(' padded-group '))).toContain('" padded-group " must be 1-64 of [a-zA-Z0-9._-]');
    expect(checkGroupId('billing.v2')).toEqual({ ok: true, value: 'billing.v2' });
  });
});

describe('lookup targets', () => {
  it('an offset is decimal digits from 0: 0x1, 1e3, " 5", -1 and 1.5 are refused', () => {
    for (const text of ['0x1', '1e3', ' 5', '-1', '1.5', '']) {
      expect(refused(checkLookupOffset(text)), text).toMatch(/^INVALID_REQUEST: An offset is a whole number from 0/);
    }
    expect(checkLookupOffset('170418')).toEqual({ ok: true, value: 170418 });
    expect(checkLookupOffset('0')).toEqual({ ok: true, value: 0 });
  });

  it("a timestamp is from 0; ListOffsets' -1 (latest) and -2 (earliest) are explained, not searched", () => {
    expect(refused(checkLookupTimestamp('-1'))).toContain('latest');
    expect(refused(checkLookupTimestamp('-2'))).toContain('earliest');
    expect(refused(checkLookupTimestamp('-5'))).toMatch(/^INVALID_REQUEST: A timestamp is milliseconds/);
    expect(refused(checkLookupTimestamp('0x10'))).toMatch(/^INVALID_REQUEST: A timestamp is milliseconds/);
    expect(checkLookupTimestamp('1700000000000')).toEqual({ ok: true, value: 1_700_000_000_000 });
  });
});

describe('the header typed beside a record', () => {
  it('an empty key with a value is sent (RecordHeader only forbids a null key), not dropped', () => {
    expect(formHeaders('', 'v')).toEqual([{ key: '', value: 'v' }]);
    expect(formHeaders('trace', '')).toEqual([{ key: 'trace', value: '' }]);
    expect(formHeaders('', '')).toEqual([]);
  });
});

describe("Send N's rate", () => {
  it('is 0 (as fast as possible) up to the maximum; above it or not a number is refused, not clamped', () => {
    expect(checkRate('0', 1_000_000)).toEqual({ ok: true, value: 0 });
    expect(checkRate('1000', 1_000_000)).toEqual({ ok: true, value: 1000 });
    for (const text of ['-1', '2000000', '', '1.5']) {
      expect(refused(checkRate(text, 1_000_000)), text).toMatch(/^INVALID_REQUEST: The rate is a whole number/);
    }
  });
});

describe('whole numbers in the create-topic form', () => {
  it('"1e1", "", "abc", " 4", "4.0" and 0 partitions are refused by name; "12" is 12', () => {
    for (const text of ['1e1', '', 'abc', ' 4', '4.0', '0', '1001', '0x10']) {
      expect(refused(checkWholeNumber(text, 'Partitions', 1, 1000, 'INVALID_PARTITIONS')), text).toMatch(
        /^INVALID_PARTITIONS: Partitions is a whole number from 1 to 1,000, in decimal digits; /,
      );
    }
    expect(refused(checkWholeNumber('', 'The start index', 0, 100, 'INVALID_REQUEST'))).toContain('the field is empty');
    expect(checkWholeNumber('12', 'Partitions', 1, 1000, 'INVALID_PARTITIONS')).toEqual({ ok: true, value: 12 });
  });
});
