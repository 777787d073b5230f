/**
 * What the page's forms accept, as pure functions: each answers the value to send, or a message
 * (starting with the Kafka error name the worker would answer) and nothing is sent. Nothing is
 * clamped or defaulted silently: a value out of range is refused with the range.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const no = <T>(message: string): Checked<T> => ({ ok: false, message });
const count = (n: number) => n.toLocaleString('en-US');

/** Plain decimal digits: no sign, no spaces, no `0x1`, no `1e3`, no `1.0`. */
const DIGITS = /^\d+$/;

/** Send N's record count: a whole number from 1 to `max` (the worker's MAX_PRODUCE_MANY_RECORDS). */
export function checkRecordCount(text: string, max: number): Checked<number> {
  const n = Number(text);
  if (!DIGITS.test(text) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    return no(
      `INVALID_REQUEST: Send N sends a whole number of records from 1 to ${count(max)}; ${text === '' ? 'the field is empty' : `"${text}" is not one`}.`,
    );
  }
  return ok(n);
}

/** Send N's pace in records per second: 0 (as fast as the worker goes) up to `max`. */
export function checkRate(text: string, max: number): Checked<number> {
  const n = Number(text);
  if (!DIGITS.test(text) || !Number.isSafeInteger(n) || n > max) {
    return no(
      `INVALID_REQUEST: The rate is a whole number of records per second from 0 (as fast as possible) to ${count(max)}; ${text === '' ? 'the field is empty' : `"${text}" is not one`}.`,
    );
  }
  return ok(n);
}

/** Kafka's ConfigDef types for the producer settings the page edits (ProducerConfig). */
const CONFIG_TYPES = { 'linger.ms': 'LONG', 'batch.size': 'INT' } as const;
const INT_MAX = 2 ** 31 - 1;

/**
 * A producer setting as Kafka's ConfigDef parses and validates it: the text trimmed and parsed
 * as a LONG or INT ("Not a number of type LONG"), then ConfigDef.Range.atLeast(0) ("Value must
 * be at least 0"), in ConfigException's words: "Invalid value -5 for configuration linger.ms: ...".
 */
export function checkProducerSetting(key: keyof typeof CONFIG_TYPES, text: string): Checked<number> {
  const type = CONFIG_TYPES[key];
  const trimmed = text.trim();
  const invalid = (why: string) => no<number>(`INVALID_CONFIG: Invalid value ${text} for configuration ${key}: ${why}`);
  const n = Number(trimmed);
  if (!/^[+-]?\d+$/.test(trimmed) || !Number.isSafeInteger(n) || (type === 'INT' && Math.abs(n) > INT_MAX)) {
    return invalid(`Not a number of type ${type}`);
  }
  if (n < 0) return invalid('Value must be at least 0');
  return ok(n);
}

/**
 * A new consumer group's id, taken exactly as typed (never trimmed): Kafka's GroupCoordinator
 * answers INVALID_GROUP_ID to an empty one, and the board's groups (ClusterApps) take 1-64 of
 * [a-zA-Z0-9._-], so " billing " is refused with that reason rather than quietly made "billing".
 */
export function checkGroupId(text: string): Checked<string> {
  if (text === '') return no('INVALID_GROUP_ID: A group needs a group.id; the field is empty.');
  if (!/^[a-zA-Z0-9._-]{1,64}$/.test(text))
    return no(`INVALID_GROUP_ID: Group id "${text}" must be 1-64 of [a-zA-Z0-9._-] (spaces included, as typed).`);
  return ok(text);
}

/**
 * A whole number typed into a form field (a topic's partitions, replication factor, start index):
 * decimal digits only, from `min` to `max`, refused with `code`, the error the worker would answer.
 * The field keeps the text as typed: "1e1" is not 10, an empty field is not 0.
 */
export function checkWholeNumber(text: string, what: string, min: number, max: number, code: string): Checked<number> {
  const n = Number(text);
  if (!DIGITS.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    return no(
      `${code}: ${what} is a whole number from ${count(min)} to ${count(max)}, in decimal digits; ${text === '' ? 'the field is empty' : `"${text}" is not one`}.`,
    );
  }
  return ok(n);
}

/** The offset to look up: a decimal integer from 0 (offsets are never negative). */
export function checkLookupOffset(text: string): Checked<number> {
  const n = Number(text);
  if (!DIGITS.test(text) || !Number.isSafeInteger(n)) {
    return no(
      `INVALID_REQUEST: An offset is a whole number from 0, in decimal digits only; ${text === '' ? 'the field is empty' : `"${text}" is not one`}.`,
    );
  }
  return ok(n);
}

/**
 * The timestamp to look up in the `.timeindex`: milliseconds since the epoch, from 0. ListOffsets
 * gives -1 (latest) and -2 (earliest) special meanings, but those are not index lookups: the
 * stepper walks the `.timeindex`, so it says so instead of searching for a negative time.
 */
export function checkLookupTimestamp(text: string): Checked<number> {
  if (text === '-1' || text === '-2') {
    return no(
      `INVALID_REQUEST: ${text} is ListOffsets' ${text === '-1' ? 'latest' : 'earliest'} offset, not a time to find in the .timeindex; look up an offset instead.`,
    );
  }
  const n = Number(text);
  if (!DIGITS.test(text) || !Number.isSafeInteger(n)) {
    return no(
      `INVALID_REQUEST: A timestamp is milliseconds since the epoch, a whole number from 0; ${text === '' ? 'the field is empty' : `"${text}" is not one`}.`,
    );
  }
  return ok(n);
}

/**
 * The header typed beside a record. Kafka's RecordHeader requires a non-null key, and an empty
 * string is a legal key, so a header with an empty key and a value is sent as it is; only a
 * header with neither key nor value means "no header".
 */
export function formHeaders(key: string, value: string): { key: string; value: string }[] {
  return key === '' && value === '' ? [] : [{ key, value }];
}
