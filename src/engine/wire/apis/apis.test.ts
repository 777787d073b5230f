/**
 * The Produce, Fetch, ListOffsets and InitProducerId schemas judged by real clients' own code:
 * kafkajs 2.2.4's request encoders and response decoders (src/protocol/requests/<api>/vN) for
 * the non-flexible versions it speaks, @platformatic/kafka 1.35.0's (dist/apis/{producer,consumer})
 * for the flexible ones. Records are RecordBatch v2 bytes: what the client encodes, the engine's
 * codec must read, and what the engine's codec writes, the client must read.
 */
import { createRequire } from 'node:module';
import { fetchV12, initProducerIdV3, listOffsetsV6, produceV9, Reader } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { decodeRecordBatches } from '../../codec/recordBatch';
import { withRecords } from '../../codec/memoryRecords';
import { encodeUtf8 } from '../../codec/utf8';
import { decodeMessage, encodeMessage } from '../wireCodec';
import { FetchRequestData, FetchResponseData } from './fetch';
import { InitProducerIdRequestData, InitProducerIdResponseData } from './initProducerId';
import { ListOffsetsRequestData, ListOffsetsResponseData } from './listOffsets';
import { ProduceRequestData, ProduceResponseData } from './produce';

const require = createRequire(import.meta.url);
type Encoded = { buffer: Buffer };
const kafkajs = (api: string, version: number, kind: 'request' | 'response') =>
  require(`kafkajs/src/protocol/requests/${api}/v${version}/${kind}`);
async function kafkajsBody(api: string, version: number, args: unknown): Promise<Uint8Array> {
  const req = kafkajs(api, version, 'request')(args) as { encode: () => Promise<Encoded> };
  return new Uint8Array((await req.encode()).buffer);
}
async function kafkajsRead(api: string, version: number, body: Uint8Array): Promise<unknown> {
  const res = kafkajs(api, version, 'response') as {
    decode: (b: Buffer) => Promise<unknown>;
    parse: (d: unknown) => Promise<unknown>;
  };
  return res.parse(await res.decode(Buffer.from(body)));
}

const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));
function valuesOf(records: Uint8Array): (string | null)[] {
  return decodeRecordBatches(records).flatMap((b) => b.records.map((r) => text(r.value)));
}
const batch = withRecords(
  ['a', 'b', 'c'].map((v) => ({ key: encodeUtf8(`k-${v}`), value: encodeUtf8(v) })),
  1_700_000_000_000,
);

describe('Produce', () => {
  it.each([3, 4, 5, 6, 7])('v%i request from kafkajs: acks, timeout, topics and its RecordBatch', async (v) => {
    const body = await kafkajsBody('produce', v, {
      acks: -1,
      timeout: 30_000,
      topicData: [
        { topic: 'demo', partitions: [{ partition: 2, firstSequence: 0, messages: [{ key: 'k', value: 'hello' }] }] },
      ],
    });
    const m = decodeMessage(ProduceRequestData, v, body) as {
      acks: number;
      timeoutMs: number;
      transactionalId: string | null;
      topicData: { name: string; partitionData: { index: number; records: Uint8Array }[] }[];
    };
    expect([m.acks, m.timeoutMs, m.transactionalId]).toEqual([-1, 30_000, null]);
    expect(m.topicData[0]?.name).toBe('demo');
    const p = m.topicData[0]?.partitionData[0];
    expect(p?.index).toBe(2);
    expect(valuesOf(p?.records ?? new Uint8Array())).toEqual(['hello']);
  });

  it.each([3, 4, 5, 6, 7])('v%i response read by kafkajs', async (v) => {
    const body = encodeMessage(ProduceResponseData, v, {
      responses: [
        {
          name: 'demo',
          partitionResponses: [{ index: 2, errorCode: 0, baseOffset: 41, logAppendTimeMs: -1, logStartOffset: 0 }],
        },
      ],
      throttleTimeMs: 0,
    });
    const parsed = (await kafkajsRead('produce', v, body)) as {
      topics: { topicName: string; partitions: { partition: number; errorCode: number; baseOffset: string }[] }[];
    };
    expect(parsed.topics[0]?.topicName).toBe('demo');
    expect(parsed.topics[0]?.partitions[0]).toMatchObject({ partition: 2, errorCode: 0, baseOffset: '41' });
  });

  it('v9 (flexible) request and response against @platformatic/kafka', () => {
    const req = new Uint8Array(
      produceV9.createRequest(
        -1,
        5_000,
        [{ topic: 'demo', partition: 1, key: Buffer.from('k'), value: Buffer.from('flex') }],
        {},
      ).buffer,
    );
    const m = decodeMessage(ProduceRequestData, 9, req) as {
      acks: number;
      topicData: { name: string; partitionData: { index: number; records: Uint8Array }[] }[];
    };
    expect(m.acks).toBe(-1);
    expect(m.topicData[0]?.partitionData[0]?.index).toBe(1);
    expect(valuesOf(m.topicData[0]?.partitionData[0]?.records ?? new Uint8Array())).toEqual(['flex']);
    const body = encodeMessage(ProduceResponseData, 9, {
      responses: [{ name: 'demo', partitionResponses: [{ index: 1, errorCode: 0, baseOffset: 7, logStartOffset: 0 }] }],
    });
    const parsed = produceV9.parseResponse(1, 0, 9, Reader.from(Buffer.from(body))) as {
      responses: { name: string; partitionResponses: { index: number; baseOffset: bigint }[] }[];
    };
    expect(parsed.responses[0]?.partitionResponses[0]?.index).toBe(1);
    expect(parsed.responses[0]?.partitionResponses[0]?.baseOffset).toBe(7n);
  });
});

describe('Fetch', () => {
  it.each([4, 5, 6, 7, 8, 9, 10, 11])('v%i request from kafkajs: the partitions and offsets it asks for', async (v) => {
    const body = await kafkajsBody('fetch', v, {
      replicaId: -1,
      maxWaitTime: 500,
      minBytes: 1,
      maxBytes: 1_048_576,
      topics: [{ topic: 'demo', partitions: [{ partition: 0, fetchOffset: '12', maxBytes: 65_536 }] }],
    });
    const m = decodeMessage(FetchRequestData, v, body) as {
      maxWaitMs: number;
      minBytes: number;
      topics: { topic: string; partitions: { partition: number; fetchOffset: number; partitionMaxBytes: number }[] }[];
    };
    expect([m.maxWaitMs, m.minBytes]).toEqual([500, 1]);
    expect(m.topics[0]?.topic).toBe('demo');
    expect(m.topics[0]?.partitions[0]).toMatchObject({ partition: 0, fetchOffset: 12, partitionMaxBytes: 65_536 });
  });

  it.each([4, 5, 6, 7, 8, 9, 10, 11])('v%i response read by kafkajs, records and all', async (v) => {
    const body = encodeMessage(FetchResponseData, v, {
      responses: [
        {
          topic: 'demo',
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 0,
              highWatermark: 3,
              lastStableOffset: 3,
              logStartOffset: 0,
              abortedTransactions: null,
              records: batch,
            },
          ],
        },
      ],
    });
    const parsed = (await kafkajsRead('fetch', v, body)) as {
      responses: { topicName: string; partitions: { highWatermark: string; messages: { value: Buffer }[] }[] }[];
    };
    const p = parsed.responses[0]?.partitions[0];
    expect(parsed.responses[0]?.topicName).toBe('demo');
    expect(p?.highWatermark).toBe('3');
    expect(p?.messages.map((m) => m.value.toString())).toEqual(['a', 'b', 'c']);
  });

  it('v12 (flexible) request and response against @platformatic/kafka', () => {
    const req = new Uint8Array(
      fetchV12.createRequest(
        100,
        1,
        1_000_000,
        0,
        0,
        -1,
        [
          {
            topicId: 'demo',
            partitions: [
              { partition: 1, currentLeaderEpoch: 4, fetchOffset: 9n, lastFetchedEpoch: -1, partitionMaxBytes: 4096 },
            ],
          },
        ],
        [],
        '',
      ).buffer,
    );
    const m = decodeMessage(FetchRequestData, 12, req) as {
      topics: { topic: string; partitions: { partition: number; currentLeaderEpoch: number; fetchOffset: number }[] }[];
    };
    expect(m.topics[0]?.topic).toBe('demo');
    expect(m.topics[0]?.partitions[0]).toMatchObject({ partition: 1, currentLeaderEpoch: 4, fetchOffset: 9 });
    const body = encodeMessage(FetchResponseData, 12, {
      responses: [
        {
          topic: 'demo',
          partitions: [
            {
              partitionIndex: 1,
              highWatermark: 3,
              lastStableOffset: 3,
              logStartOffset: 0,
              abortedTransactions: [],
              records: batch,
            },
          ],
        },
      ],
    });
    const parsed = fetchV12.parseResponse(1, 1, 12, Reader.from(Buffer.from(body))) as {
      responses: { partitions: { highWatermark: bigint; records?: { records: { value: Buffer }[] }[] }[] }[];
    };
    const p = parsed.responses[0]?.partitions[0];
    expect(p?.highWatermark).toBe(3n);
    expect(p?.records?.flatMap((b) => b.records.map((r) => r.value.toString()))).toEqual(['a', 'b', 'c']);
  });
});

describe('ListOffsets', () => {
  it.each([1, 2, 3])('v%i request from kafkajs and response read by it', async (v) => {
    const body = await kafkajsBody('listOffsets', v, {
      replicaId: -1,
      isolationLevel: 1,
      topics: [{ topic: 'demo', partitions: [{ partition: 2, timestamp: -2 }] }],
    });
    const m = decodeMessage(ListOffsetsRequestData, v, body) as {
      topics: { name: string; partitions: { partitionIndex: number; timestamp: number }[] }[];
    };
    expect(m.topics[0]?.partitions[0]).toMatchObject({ partitionIndex: 2, timestamp: -2 });
    const answer = encodeMessage(ListOffsetsResponseData, v, {
      topics: [{ name: 'demo', partitions: [{ partitionIndex: 2, errorCode: 0, timestamp: -1, offset: 17 }] }],
    });
    const parsed = (await kafkajsRead('listOffsets', v, answer)) as {
      responses: { topic: string; partitions: { partition: number; offset: string }[] }[];
    };
    expect(parsed.responses[0]?.partitions[0]).toMatchObject({ partition: 2, offset: '17' });
  });

  it('v6 (flexible) against @platformatic/kafka', () => {
    const req = new Uint8Array(
      listOffsetsV6.createRequest(-1, 0, [
        { name: 'demo', partitions: [{ partitionIndex: 0, currentLeaderEpoch: 2, timestamp: -1n }] },
      ]).buffer,
    );
    const m = decodeMessage(ListOffsetsRequestData, 6, req) as {
      topics: { partitions: { partitionIndex: number; currentLeaderEpoch: number; timestamp: number }[] }[];
    };
    expect(m.topics[0]?.partitions[0]).toEqual({ partitionIndex: 0, currentLeaderEpoch: 2, timestamp: -1 });
    const body = encodeMessage(ListOffsetsResponseData, 6, {
      topics: [
        { name: 'demo', partitions: [{ partitionIndex: 0, errorCode: 0, timestamp: -1, offset: 5, leaderEpoch: 2 }] },
      ],
    });
    const parsed = listOffsetsV6.parseResponse(1, 2, 6, Reader.from(Buffer.from(body))) as {
      topics: { partitions: { offset: bigint; leaderEpoch: number }[] }[];
    };
    expect(parsed.topics[0]?.partitions[0]).toMatchObject({ offset: 5n, leaderEpoch: 2 });
  });
});

describe('InitProducerId', () => {
  it.each([0, 1])('v%i request from kafkajs and response read by it', async (v) => {
    const body = await kafkajsBody('initProducerId', v, { transactionalId: null, transactionTimeout: 60_000 });
    expect(decodeMessage(InitProducerIdRequestData, v, body)).toMatchObject({
      transactionalId: null,
      transactionTimeoutMs: 60_000,
    });
    const answer = encodeMessage(InitProducerIdResponseData, v, { errorCode: 0, producerId: 4001, producerEpoch: 0 });
    const parsed = (await kafkajsRead('initProducerId', v, answer)) as { producerId: string; producerEpoch: number };
    expect([parsed.producerId, parsed.producerEpoch]).toEqual(['4001', 0]);
  });

  it('v3 (flexible, KIP-360 epoch bump fields) against @platformatic/kafka', () => {
    const req = new Uint8Array(initProducerIdV3.createRequest(null, 60_000, 4001n, 3).buffer);
    expect(decodeMessage(InitProducerIdRequestData, 3, req)).toEqual({
      transactionalId: null,
      transactionTimeoutMs: 60_000,
      producerId: 4001,
      producerEpoch: 3,
    });
    const body = encodeMessage(InitProducerIdResponseData, 3, { errorCode: 0, producerId: 4001, producerEpoch: 4 });
    const parsed = initProducerIdV3.parseResponse(1, 22, 3, Reader.from(Buffer.from(body))) as {
      producerId: bigint;
      producerEpoch: number;
    };
    expect([parsed.producerId, parsed.producerEpoch]).toEqual([4001n, 4]);
  });
});
