/**
 * The shape of Kafka's protocol messages, as data: a message is a list of fields, each present in
 * a range of versions, some nullable in a range, some tagged (KIP-482). Kafka generates Java from
 * its JSON message definitions; glassbox keeps the same facts as TypeScript tables and walks them
 * with one generic encoder and decoder (`wireCodec.ts`).
 *
 * Field names are camelCase of Kafka's (ErrorCode -> errorCode), so a decoded message reads like
 * Kafka's generated data classes.
 */

/** Inclusive version range; `hi` is Infinity for "N+". */
export interface VersionRange {
  readonly lo: number;
  readonly hi: number;
}

/** No version at all ("none" in Kafka's definitions). */
export const NO_VERSIONS: VersionRange = { lo: 1, hi: 0 };

/** Parses Kafka's version strings: "3+", "0-4", "5", "none". */
export function versions(spec: string): VersionRange {
  if (spec === 'none') return NO_VERSIONS;
  if (spec.endsWith('+')) return { lo: Number(spec.slice(0, -1)), hi: Number.POSITIVE_INFINITY };
  const dash = spec.indexOf('-');
  if (dash < 0) return { lo: Number(spec), hi: Number(spec) };
  return { lo: Number(spec.slice(0, dash)), hi: Number(spec.slice(dash + 1)) };
}

export function inRange(r: VersionRange, v: number): boolean {
  return v >= r.lo && v <= r.hi;
}

/** The scalar types of Kafka's protocol (`Type` in org.apache.kafka.common.protocol.types). */
export type PrimitiveType =
  | 'bool'
  | 'int8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'float64'
  | 'string'
  | 'bytes'
  /** A RecordBatch set: bytes on the wire, kept as bytes here (the log's codec reads them). */
  | 'records'
  /** 16 bytes, shown as the 32-hex-digit string Kafka logs (not base64: this is for tests and views). */
  | 'uuid';

export type FieldType =
  | PrimitiveType
  | { readonly arrayOf: PrimitiveType }
  | { readonly arrayOf: readonly Field[] }
  | { readonly struct: readonly Field[] };

export interface Field {
  readonly name: string;
  readonly type: FieldType;
  readonly versions: VersionRange;
  readonly nullable: VersionRange;
  /** Tagged field: its tag and the versions it is tagged in (always flexible ones). */
  readonly tag?: number;
  readonly taggedVersions?: VersionRange;
  /** The value written when the caller gives none, and read for versions without the field. */
  readonly default?: unknown;
}

export interface FieldOptions {
  nullable?: string;
  tag?: number;
  taggedVersions?: string;
  default?: unknown;
}

/** One field: `field('errorCode', 'int16', '0+')`. */
export function field(name: string, type: FieldType, versionSpec: string, options: FieldOptions = {}): Field {
  return {
    name,
    type,
    versions: versions(versionSpec),
    nullable: versions(options.nullable ?? 'none'),
    ...(options.tag !== undefined
      ? { tag: options.tag, taggedVersions: versions(options.taggedVersions ?? versionSpec) }
      : {}),
    ...(options.default !== undefined ? { default: options.default } : {}),
  };
}

/** Several plain fields present in the same versions, in order: `fields('0+', { host: 'string', port: 'int32' })`. */
export function fields(versionSpec: string, types: Readonly<Record<string, FieldType>>): Field[] {
  return Object.entries(types).map(([name, type]) => field(name, type, versionSpec));
}

/** An array field: of a primitive type, or of structs with `of`'s fields. */
export function array(
  name: string,
  versionSpec: string,
  of: PrimitiveType | readonly Field[],
  options: FieldOptions = {},
): Field {
  return field(name, typeof of === 'string' ? { arrayOf: of } : { arrayOf: of }, versionSpec, options);
}

/** A nullable string that is null unless given (error messages, instance ids, reasons). */
export function nullableString(name: string, versionSpec: string, nullableSpec = versionSpec): Field {
  return field(name, 'string', versionSpec, { nullable: nullableSpec, default: null });
}

/** A number whose "unknown" is -1 (epochs, offsets, ids, timestamps): what a reader of an older version gets. */
export function orMinusOne(
  name: string,
  type: 'int8' | 'int16' | 'int32' | 'int64',
  versionSpec: string,
  options: FieldOptions = {},
): Field {
  return field(name, type, versionSpec, { default: -1, ...options });
}

/** The quota throttle time almost every response carries. */
export function throttleTimeMs(versionSpec: string): Field {
  return field('throttleTimeMs', 'int32', versionSpec);
}

/** An error code (0 is none) and, where the version has one, its message. */
export function errorCode(versionSpec: string, messageSpec?: string): Field[] {
  const code = field('errorCode', 'int16', versionSpec);
  return messageSpec === undefined ? [code] : [code, nullableString('errorMessage', messageSpec)];
}

/**
 * Kafka's most common shape: an array of topics, each a name and an array of partitions with
 * `partitionFields` (`[{name, partitions: [...]}]`), present in `versionSpec`.
 */
export function perTopic(
  arrayName: string,
  partitionFields: readonly Field[],
  names: { topic?: string; partitions?: string; topicVersions?: string } = {},
  versionSpec = '0+',
): Field {
  return field(
    arrayName,
    {
      arrayOf: [
        field(names.topic ?? 'name', 'string', names.topicVersions ?? versionSpec),
        field(names.partitions ?? 'partitions', { arrayOf: partitionFields }, versionSpec),
      ],
    },
    versionSpec,
  );
}

/** A request or response of one API. */
export interface MessageSchema {
  readonly apiKey: number;
  readonly name: string;
  readonly valid: VersionRange;
  /** Versions with compact strings, arrays and bytes, and a tagged-field section per struct. */
  readonly flexible: VersionRange;
  readonly fields: readonly Field[];
}

export function message(
  apiKey: number,
  name: string,
  validSpec: string,
  flexibleSpec: string,
  fields: readonly Field[],
): MessageSchema {
  return { apiKey, name, valid: versions(validSpec), flexible: versions(flexibleSpec), fields };
}

/** A decoded (or to-be-encoded) message or struct: field name -> value. */
export type WireValue = { [name: string]: unknown };
