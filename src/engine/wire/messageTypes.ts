/**
 * A message's TypeScript type, inferred from its schema table (`schema.ts`), as Kafka's generated
 * data classes are generated from its JSON definitions: one type per message for all versions.
 *
 * - `WireMessage<S>`: what `decodeMessage` gives. Every field is there: a field the version lacks,
 *   or a tagged field the writer left out, reads as its default.
 * - `WireMessageToEncode<S>`: what `encodeMessage` takes. Every field may be left out, and is then
 *   written as its default (Kafka's generated writers start from the same defaults); a field the
 *   table does not name is a compile error.
 */
import type { Field, FieldType, MessageSchema, PrimitiveType, WireValue } from './schema';

/** The value of a primitive: int64 is a JavaScript number here, as the byte codec reads it. */
type PrimitiveValue<P extends PrimitiveType> = P extends 'bool'
  ? boolean
  : P extends 'string' | 'uuid'
    ? string
    : P extends 'bytes'
      ? Uint8Array
      : P extends 'records'
        ? Uint8Array | null
        : number;

/** `null` when some version lets the field be null. */
type NullOf<F> = F extends Field<string, FieldType, infer Nul> ? (true extends Nul ? null : never) : never;

type Decoded<T> = T extends PrimitiveType
  ? PrimitiveValue<T>
  : T extends { readonly arrayOf: infer E }
    ? E extends PrimitiveType
      ? PrimitiveValue<E>[]
      : E extends readonly Field[]
        ? DecodedStruct<E>[]
        : never
    : T extends { readonly struct: infer S extends readonly Field[] }
      ? DecodedStruct<S>
      : never;

type Encodable<T> = T extends PrimitiveType
  ? PrimitiveValue<T>
  : T extends { readonly arrayOf: infer E }
    ? E extends PrimitiveType
      ? readonly PrimitiveValue<E>[]
      : E extends readonly Field[]
        ? readonly EncodableStruct<E>[]
        : never
    : T extends { readonly struct: infer S extends readonly Field[] }
      ? EncodableStruct<S>
      : never;

/** A decoded struct of `F`'s fields. */
export type DecodedStruct<F extends readonly Field[]> = {
  [E in F[number] as E['name']]: Decoded<E['type']> | NullOf<E>;
};

/** A struct of `F`'s fields to encode, any of them left out. */
export type EncodableStruct<F extends readonly Field[]> = {
  [E in F[number] as E['name']]?: Encodable<E['type']> | NullOf<E>;
};

/** A schema whose field names are not known to the compiler (a `MessageSchema` variable): untyped. */
type Untyped<S extends MessageSchema> = string extends S['fields'][number]['name'] ? true : false;

/** A decoded message of schema `S`. */
export type WireMessage<S extends MessageSchema> = Untyped<S> extends true ? WireValue : DecodedStruct<S['fields']>;

/** A message of schema `S` to encode. */
export type WireMessageToEncode<S extends MessageSchema> =
  Untyped<S> extends true ? WireValue : EncodableStruct<S['fields']>;

/** The fields of `T`, at any depth, that `Shape` does not name (never when there are none). */
type UnknownFields<T, Shape> = T extends readonly (infer E)[]
  ? NonNullable<Shape> extends readonly (infer S)[]
    ? UnknownFields<E, S>
    : never
  : T extends Uint8Array
    ? never
    : T extends object
      ? {
          [K in keyof T]-?: K extends keyof NonNullable<Shape> ? UnknownFields<T[K], NonNullable<Shape>[K]> : K;
        }[keyof T]
      : never;

/**
 * Intersected with a value `T` built for `Shape`, refuses (at compile time) any field `Shape`
 * does not name, however deep: an object literal built in an array's `map` escapes TypeScript's
 * excess property check, and a misspelled field would otherwise be dropped and its default sent.
 */
export type OnlyKnownFields<T, Shape> = [UnknownFields<T, Shape>] extends [never]
  ? unknown
  : { readonly unknownField: UnknownFields<T, Shape> };
