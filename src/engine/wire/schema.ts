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
  | { readonly arrayOf: PrimitiveType | readonly Field[] }
  | { readonly struct: readonly Field[] };

/** Type-only: whether a field may be null in some version (never present at run time). */
declare const NULLABLE: unique symbol;

/**
 * One field of a message or struct. The type parameters keep what the table says (the name, the
 * type, whether it is ever nullable) so the message's TypeScript type is inferred from the table
 * (`messageTypes.ts`); the run-time value is the same plain object either way.
 */
export interface Field<N extends string = string, T extends FieldType = FieldType, Nul extends boolean = boolean> {
  readonly name: N;
  readonly type: T;
  readonly versions: VersionRange;
  readonly nullable: VersionRange;
  /** Tagged field: its tag and the versions it is tagged in (always flexible ones). */
  readonly tag?: number;
  readonly taggedVersions?: VersionRange;
  /** The value written when the caller gives none, and read for versions without the field. */
  readonly default?: unknown;
  readonly [NULLABLE]?: Nul;
}

export interface FieldOptions {
  nullable?: string;
  tag?: number;
  taggedVersions?: string;
  default?: unknown;
}

/** Whether options make a field nullable in some version. */
type NullableIn<O extends FieldOptions> = O extends { nullable: string } ? true : false;

/** One field: `field('errorCode', 'int16', '0+')`. */
export function field<const N extends string, const T extends FieldType, const O extends FieldOptions = FieldOptions>(
  name: N,
  type: T,
  versionSpec: string,
  options?: O,
): Field<N, T, NullableIn<O>> {
  return {
    name,
    type,
    versions: versions(versionSpec),
    nullable: versions(options?.nullable ?? 'none'),
    ...(options?.tag !== undefined
      ? { tag: options.tag, taggedVersions: versions(options.taggedVersions ?? versionSpec) }
      : {}),
    ...(options?.default !== undefined ? { default: options.default } : {}),
  };
}

/** Several plain fields present in the same versions, in order: `fields('0+', { host: 'string', port: 'int32' })`. */
export function fields<const M extends Readonly<Record<string, FieldType>>>(
  versionSpec: string,
  types: M,
): { [K in keyof M & string]: Field<K, M[K], false> }[keyof M & string][] {
  // Object.entries forgets which type goes with which key; each field is built from its own pair.
  return Object.entries(types).map(([name, type]) => field(name, type, versionSpec)) as {
    [K in keyof M & string]: Field<K, M[K], false>;
  }[keyof M & string][];
}

/** An array field: of a primitive type, or of structs with `of`'s fields. */
export function array<
  const N extends string,
  const Of extends PrimitiveType | readonly Field[],
  const O extends FieldOptions = FieldOptions,
>(name: N, versionSpec: string, of: Of, options?: O): Field<N, { readonly arrayOf: Of }, NullableIn<O>> {
  return field(name, { arrayOf: of }, versionSpec, options);
}

/** A nullable string that is null unless given (error messages, instance ids, reasons). */
export function nullableString<const N extends string>(
  name: N,
  versionSpec: string,
  nullableSpec = versionSpec,
): Field<N, 'string', true> {
  return field(name, 'string', versionSpec, { nullable: nullableSpec, default: null });
}

/** A number whose "unknown" is -1 (epochs, offsets, ids, timestamps): what a reader of an older version gets. */
export function orMinusOne<const N extends string, const T extends 'int8' | 'int16' | 'int32' | 'int64'>(
  name: N,
  type: T,
  versionSpec: string,
  options: Omit<FieldOptions, 'nullable'> = {},
): Field<N, T, false> {
  return field(name, type, versionSpec, { default: -1, ...options });
}

/** The quota throttle time almost every response carries. */
export function throttleTimeMs(versionSpec: string): Field<'throttleTimeMs', 'int32', false> {
  return field('throttleTimeMs', 'int32', versionSpec);
}

type ErrorCodeField = Field<'errorCode', 'int16', false>;

/** An error code (0 is none) and, where the version has one, its message. */
export function errorCode(versionSpec: string): ErrorCodeField[];
export function errorCode(
  versionSpec: string,
  messageSpec: string,
): (ErrorCodeField | Field<'errorMessage', 'string', true>)[];
export function errorCode(versionSpec: string, messageSpec?: string): Field[] {
  const code = field('errorCode', 'int16', versionSpec);
  return messageSpec === undefined ? [code] : [code, nullableString('errorMessage', messageSpec)];
}

/** Names for `perTopic`'s topic and partitions fields, when they are not `name` and `partitions`. */
interface PerTopicNames {
  topic?: string;
  partitions?: string;
  topicVersions?: string;
}

type NameOr<G, D extends string> = [G] extends [string] ? G : D;

/**
 * Kafka's most common shape: an array of topics, each a name and an array of partitions with
 * `partitionFields` (`[{name, partitions: [...]}]`), present in `versionSpec`.
 */
export function perTopic<
  const N extends string,
  const P extends readonly Field[],
  const Names extends PerTopicNames = PerTopicNames,
>(
  arrayName: N,
  partitionFields: P,
  names?: Names,
  versionSpec = '0+',
): Field<
  N,
  {
    readonly arrayOf: (
      | Field<NameOr<Names['topic'], 'name'>, 'string', false>
      | Field<NameOr<Names['partitions'], 'partitions'>, { readonly arrayOf: P }, false>
    )[];
  },
  false
> {
  // TypeScript does not narrow a conditional type by `??`: the names are the given ones or the defaults.
  return field(
    arrayName,
    {
      arrayOf: [
        field(
          (names?.topic ?? 'name') as NameOr<Names['topic'], 'name'>,
          'string',
          names?.topicVersions ?? versionSpec,
        ),
        field(
          (names?.partitions ?? 'partitions') as NameOr<Names['partitions'], 'partitions'>,
          { arrayOf: partitionFields },
          versionSpec,
        ),
      ],
    },
    versionSpec,
  );
}

/** A request or response of one API; `K` and `F` keep the table's api key and fields for the types. */
export interface MessageSchema<K extends number = number, F extends readonly Field[] = readonly Field[]> {
  readonly apiKey: K;
  readonly name: string;
  readonly valid: VersionRange;
  /** Versions with compact strings, arrays and bytes, and a tagged-field section per struct. */
  readonly flexible: VersionRange;
  readonly fields: F;
}

export function message<const K extends number, const F extends readonly Field[]>(
  apiKey: K,
  name: string,
  validSpec: string,
  flexibleSpec: string,
  fields: F,
): MessageSchema<K, F> {
  return { apiKey, name, valid: versions(validSpec), flexible: versions(flexibleSpec), fields };
}

/** A decoded (or to-be-encoded) message or struct: field name -> value. */
export type WireValue = { [name: string]: unknown };
