/**
 * Test support for the schema tests: the real clients' own request encoders and response
 * decoders (kafkajs 2.2.4's src/protocol/requests/<api>/vN, @platformatic/kafka 1.35.0's
 * parseResponse), so a served schema is judged by code that is not ours.
 */
import { createRequire } from 'node:module';
import { Reader } from '@platformatic/kafka';
import type { MessageSchema, WireValue } from '../schema';
import { encodeMessage } from '../wireCodec';

const require = createRequire(import.meta.url);
type Encoded = { buffer: Buffer };
const kafkajs = (api: string, version: number, kind: 'request' | 'response') =>
  require(`kafkajs/src/protocol/requests/${api}/v${version}/${kind}`);

/** The body kafkajs writes for request `api` version `version` with `args`. */
export async function kafkajsBody(api: string, version: number, args: unknown): Promise<Uint8Array> {
  const req = kafkajs(api, version, 'request')(args) as { encode: () => Promise<Encoded> };
  return new Uint8Array((await req.encode()).buffer);
}

/** kafkajs' decoder and parser reading a response body. */
export async function kafkajsRead(api: string, version: number, body: Uint8Array): Promise<unknown> {
  const res = kafkajs(api, version, 'response') as {
    decode: (b: Buffer) => Promise<unknown>;
    parse: (d: unknown) => Promise<unknown>;
  };
  return res.parse(await res.decode(Buffer.from(body)));
}

/** kafkajs reading our answer of `value` (encoded with `schema` in version `v`), as its own type. */
export async function kafkajsAnswer<T>(api: string, v: number, schema: MessageSchema, value: WireValue): Promise<T> {
  return (await kafkajsRead(api, v, encodeMessage(schema, v, value))) as T;
}

/** The bytes of a request @platformatic/kafka wrote. */
export const bytesOf = (w: { buffer: Buffer }) => new Uint8Array(w.buffer);

/** @platformatic/kafka's parser reading our answer of `value`. */
export function platformaticRead(
  api: { parseResponse: (c: number, k: number, v: number, r: Reader) => unknown },
  schema: MessageSchema,
  version: number,
  value: WireValue,
): unknown {
  return api.parseResponse(1, schema.apiKey, version, Reader.from(Buffer.from(encodeMessage(schema, version, value))));
}
