/**
 * The request and response types inferred from the schema tables. The `@ts-expect-error` lines are
 * checked by `npm run typecheck` (tsconfig.node.json includes the tests): if a misspelled field or
 * an unknown API stopped being an error, the directive itself would fail the typecheck.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ProduceRequestData, ProduceResponseData } from './apis/produce';
import { HeartbeatResponseData } from './apis/groups';
import { requestAndResponse, WIRE_APIS, type WireApi, type WireRequest, type WireResponse } from './apiMessages';
import type { OnlyKnownFields } from './messageTypes';
import { type MessageSchema, message } from './schema';
import { decodeMessage, encodeMessage } from './wireCodec';

describe('WIRE_APIS', () => {
  it('pairs each request with the response of the same api key, named as the messages are', () => {
    for (const [api, { request, response }] of Object.entries(WIRE_APIS)) {
      expect(request.name).toBe(`${api}Request`);
      expect(response.name).toBe(`${api}Response`);
      expect(response.apiKey).toBe(request.apiKey);
    }
    expect(new Set(Object.values(WIRE_APIS).map((a) => a.request.apiKey)).size).toBe(Object.keys(WIRE_APIS).length);
  });

  it("refuses an unknown API and a request paired with another API's response", () => {
    expectTypeOf<'Produce'>().toExtend<WireApi>();
    // @ts-expect-error 'Produse' is no API
    expectTypeOf<'Produse'>().toExtend<WireApi>();
    // @ts-expect-error an unknown API has no request type
    type Unknown = WireRequest<'Produse'>;
    expectTypeOf<Unknown>().not.toBeNever();
    expect(requestAndResponse(ProduceRequestData, ProduceResponseData).response.apiKey).toBe(0);
    // @ts-expect-error a Produce request (api key 0) paired with the Heartbeat response (12)
    requestAndResponse(ProduceRequestData, HeartbeatResponseData);
  });
});

describe('message types from the schema tables', () => {
  it('types a decoded request with every field of the table', () => {
    const bytes = encodeMessage(ProduceRequestData, 9, {
      acks: -1,
      timeoutMs: 30_000,
      topicData: [{ name: 'orders', partitionData: [{ index: 0, records: null }] }],
    });
    const produce = decodeMessage(ProduceRequestData, 9, bytes);
    expectTypeOf(produce).toEqualTypeOf<WireRequest<'Produce'>>();
    expectTypeOf(produce.transactionalId).toEqualTypeOf<string | null>();
    expectTypeOf(produce.topicData[0]?.partitionData[0]?.records).toEqualTypeOf<Uint8Array | null | undefined>();
    expect(produce.topicData[0]?.partitionData[0]?.index).toBe(0);
    // @ts-expect-error misspelled: the request has `topicData`
    expect(produce.topicdata).toBeUndefined();
  });

  it('refuses a misspelled field in a message to encode, at the top and deep inside', () => {
    const answer: WireResponse<'Produce'> = { responses: [], throttleTimeMs: 0 };
    expect(encodeMessage(ProduceResponseData, 9, answer).length).toBeGreaterThan(0);
    // @ts-expect-error misspelled: `throttleTimeMs`
    const top: WireResponse<'Produce'> = { responses: [], throtleTimeMs: 0 };
    const deep: WireResponse<'Produce'> = {
      // @ts-expect-error misspelled: `baseOffset`
      responses: [{ name: 'orders', partitionResponses: [{ index: 0, baseOfset: 5 }] }],
    };
    const wrongType: WireResponse<'Produce'> = {
      // @ts-expect-error a string where the table says int16
      responses: [{ name: 'orders', partitionResponses: [{ errorCode: 'NONE' }] }],
    };
    expect([top, deep, wrongType]).toHaveLength(3);
  });

  it('finds a misspelled field that an array map hides from the excess property check', () => {
    const partitions = [{ index: 0 }];
    const built = {
      responses: [{ name: 'o', partitionResponses: partitions.map((p) => ({ index: p.index, baseOfset: 5 })) }],
    };
    // What TypeScript alone lets through: a value built in a map is not checked for extra fields.
    const unchecked: WireResponse<'Produce'> = built;
    expect(unchecked.responses).toHaveLength(1);
    expectTypeOf<OnlyKnownFields<typeof built, WireResponse<'Produce'>>>().toEqualTypeOf<{
      readonly unknownField: 'baseOfset';
    }>();
    const good = { responses: [{ name: 'o', partitionResponses: partitions.map((p) => ({ index: p.index })) }] };
    expectTypeOf<OnlyKnownFields<typeof good, WireResponse<'Produce'>>>().toEqualTypeOf<unknown>();
  });

  it('leaves a schema held as a plain MessageSchema untyped', () => {
    const schema: MessageSchema = message(99, 'ScratchRequest', '0', 'none', []);
    expectTypeOf(decodeMessage(schema, 0, new Uint8Array(0))).toEqualTypeOf<{ [name: string]: unknown }>();
  });
});
