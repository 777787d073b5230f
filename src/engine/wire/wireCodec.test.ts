/**
 * The schema codec judged by real clients' own encoders and decoders, not by itself:
 * - kafkajs 2.2.4 (src/protocol/requests/{apiVersions,metadata}/vN): the non-flexible versions it
 *   speaks (ApiVersions 0-2, Metadata 0-6), with request header v1 (kafkajs src/protocol/request.js);
 * - @platformatic/kafka 1.35.0 (dist/apis/metadata/{api-versions-v3,metadata-v9..v12}.js): the
 *   flexible versions (compact strings and arrays, tagged-field sections, request header v2).
 */
import { createRequire } from 'node:module';
import { apiVersionsV3, metadataV9, metadataV10, metadataV12, Reader } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../codec/bytes';
import { ApiVersionsRequestData, ApiVersionsResponseData } from './apis/apiVersions';
import { MetadataRequestData, MetadataResponseData } from './apis/metadata';
import { peekRequestHeader, readRequestHeaderRest, requestHeaderVersion } from './headers';
import { decodeMessage, encodeMessage, WireFormatError } from './wireCodec';

const require = createRequire(import.meta.url);
type KafkajsRequest = { apiKey: number; apiVersion: number; encode: () => Promise<{ buffer: Buffer }> };
type KafkajsResponse = { decode: (b: Buffer) => Promise<unknown>; parse: (d: unknown) => Promise<unknown> };
const kafkajsFrame: (args: {
  correlationId: number;
  clientId: string;
  request: KafkajsRequest;
}) => Promise<{ buffer: Buffer }> = require('kafkajs/src/protocol/request');
const kafkajs = (api: string, version: number, kind: 'request' | 'response') =>
  require(`kafkajs/src/protocol/requests/${api}/v${version}/${kind}`);

/** Splits a framed request into its header and body as a broker reads it. */
function readFramed(bytes: Uint8Array, flexible: boolean) {
  const r = new ByteReader(bytes);
  const size = r.readInt32();
  expect(size).toBe(bytes.length - 4);
  const start = peekRequestHeader(r);
  const header = readRequestHeaderRest(r, start, requestHeaderVersion(start.apiKey, start.apiVersion, flexible));
  return { header, body: bytes.subarray(r.position) };
}

const BROKERS = [
  { nodeId: 1, host: '127.0.0.1', port: 9092, rack: 'rack-a' },
  { nodeId: 2, host: '127.0.0.1', port: 9093, rack: null },
  { nodeId: 3, host: '127.0.0.1', port: 9094, rack: 'rack-b' },
];
const TOPIC_ID = '8d3a5f0e6b1c4e2f9a7b0c1d2e3f4a5b';
const TOPICS = [
  {
    errorCode: 0,
    name: 'demo',
    topicId: TOPIC_ID,
    isInternal: false,
    partitions: [
      {
        errorCode: 0,
        partitionIndex: 0,
        leaderId: 1,
        leaderEpoch: 3,
        replicaNodes: [1, 2, 3],
        isrNodes: [1, 2],
        offlineReplicas: [3],
      },
      {
        errorCode: 9,
        partitionIndex: 1,
        leaderId: -1,
        leaderEpoch: 4,
        replicaNodes: [2, 3],
        isrNodes: [],
        offlineReplicas: [2, 3],
      },
    ],
    topicAuthorizedOperations: -2147483648,
  },
];

describe('requests from kafkajs 2.2.4 (non-flexible versions, header v1)', () => {
  it.each([0, 1, 2])('ApiVersions v%i: header fields and an empty body', async (v) => {
    const req: KafkajsRequest = kafkajs('apiVersions', v, 'request')();
    const framed = await kafkajsFrame({ correlationId: 41, clientId: 'kafkajs-test', request: req });
    const { header, body } = readFramed(new Uint8Array(framed.buffer), false);
    expect(header).toEqual({ apiKey: 18, apiVersion: v, correlationId: 41, clientId: 'kafkajs-test' });
    expect(decodeMessage(ApiVersionsRequestData, v, body)).toEqual({
      clientSoftwareName: '',
      clientSoftwareVersion: '',
    });
  });

  it.each([0, 1, 2, 3, 4, 5, 6])('Metadata v%i: topics and auto-creation', async (v) => {
    const req: KafkajsRequest = kafkajs(
      'metadata',
      v,
      'request',
    )({ topics: ['demo', 'orders'], allowAutoTopicCreation: false });
    const framed = await kafkajsFrame({ correlationId: 7, clientId: 'c', request: req });
    const { header, body } = readFramed(new Uint8Array(framed.buffer), false);
    expect(header.apiKey).toBe(3);
    expect(header.apiVersion).toBe(v);
    const m = decodeMessage(MetadataRequestData, v, body);
    expect((m.topics as { name: string }[]).map((t) => t.name)).toEqual(['demo', 'orders']);
    // v0-3 have no such field: the reader gets Kafka's default, true.
    expect(m.allowAutoTopicCreation).toBe(v >= 4 ? false : true);
  });
});

describe('responses read by kafkajs 2.2.4', () => {
  it.each([0, 1, 2])('ApiVersions v%i', async (v) => {
    const apiKeys = [
      { apiKey: 0, minVersion: 3, maxVersion: 11 },
      { apiKey: 3, minVersion: 0, maxVersion: 12 },
      { apiKey: 18, minVersion: 0, maxVersion: 3 },
    ];
    const body = encodeMessage(ApiVersionsResponseData, v, { errorCode: 0, apiKeys, throttleTimeMs: 0 });
    const res: KafkajsResponse = kafkajs('apiVersions', v, 'response');
    const parsed = (await res.parse(await res.decode(Buffer.from(body)))) as { apiVersions: unknown[] };
    expect(parsed.apiVersions).toEqual(apiKeys);
  });

  it.each([1, 2, 3, 4, 5, 6])('Metadata v%i: brokers, controller, partitions', async (v) => {
    const body = encodeMessage(MetadataResponseData, v, {
      throttleTimeMs: 0,
      brokers: BROKERS,
      clusterId: 'glassbox',
      controllerId: 2,
      topics: TOPICS,
    });
    const res: KafkajsResponse = kafkajs('metadata', v, 'response');
    const decoded = (await res.decode(Buffer.from(body))) as {
      brokers: { nodeId: number; host: string; port: number; rack?: string | null }[];
      controllerId: number;
      clusterId?: string;
      topicMetadata: {
        topic: string;
        partitionMetadata: {
          partitionId: number;
          leader: number;
          replicas: number[];
          isr: number[];
          offlineReplicas?: number[];
        }[];
      }[];
    };
    expect(decoded.brokers.map((b) => [b.nodeId, b.host, b.port, b.rack])).toEqual(
      BROKERS.map((b) => [b.nodeId, b.host, b.port, b.rack]),
    );
    expect(decoded.controllerId).toBe(2);
    if (v >= 2) expect(decoded.clusterId).toBe('glassbox');
    const p = decoded.topicMetadata[0]?.partitionMetadata ?? [];
    expect(p.map((x) => [x.partitionId, x.leader, x.replicas, x.isr])).toEqual([
      [0, 1, [1, 2, 3], [1, 2]],
      [1, -1, [2, 3], []],
    ]);
    if (v >= 5) expect(p[0]?.offlineReplicas).toEqual([3]);
  });
});

describe('flexible versions against @platformatic/kafka 1.35.0 (compact fields, tagged sections)', () => {
  it('ApiVersions v3 request: compact client software name and version', () => {
    const body = new Uint8Array(apiVersionsV3.createRequest('platformatic-kafka', '1.35.0').buffer);
    expect(decodeMessage(ApiVersionsRequestData, 3, body)).toEqual({
      clientSoftwareName: 'platformatic-kafka',
      clientSoftwareVersion: '1.35.0',
    });
  });

  it('ApiVersions v3 response with a tagged field (FinalizedFeaturesEpoch) is read past it', () => {
    const apiKeys = [{ apiKey: 3, minVersion: 0, maxVersion: 12 }];
    const body = encodeMessage(ApiVersionsResponseData, 3, {
      errorCode: 0,
      apiKeys,
      throttleTimeMs: 5,
      finalizedFeaturesEpoch: 7,
    });
    const parsed = apiVersionsV3.parseResponse(1, 18, 3, Reader.from(Buffer.from(body))) as {
      apiKeys: { apiKey: number; minVersion: number; maxVersion: number }[];
      throttleTimeMs: number;
    };
    expect(parsed.apiKeys.map(({ apiKey, minVersion, maxVersion }) => ({ apiKey, minVersion, maxVersion }))).toEqual(
      apiKeys,
    );
    expect(parsed.throttleTimeMs).toBe(5);
    // Our own reader gives the tagged field back.
    expect(decodeMessage(ApiVersionsResponseData, 3, body).finalizedFeaturesEpoch).toBe(7);
  });

  it.each([
    [9, metadataV9],
    [10, metadataV10],
    [12, metadataV12],
  ] as const)('Metadata v%i request', (v, api) => {
    const body = new Uint8Array(api.createRequest(['demo', 'orders'], true, false).buffer);
    const m = decodeMessage(MetadataRequestData, v, body);
    expect((m.topics as { name: string }[]).map((t) => t.name)).toEqual(['demo', 'orders']);
    expect(m.allowAutoTopicCreation).toBe(true);
  });

  it.each([
    [9, metadataV9],
    [10, metadataV10],
    [12, metadataV12],
  ] as const)('Metadata v%i response', (v, api) => {
    const body = encodeMessage(MetadataResponseData, v, {
      throttleTimeMs: 0,
      brokers: BROKERS,
      clusterId: 'glassbox',
      controllerId: 2,
      topics: TOPICS.map((t) => ({ ...t, partitions: t.partitions.map((p) => ({ ...p, errorCode: 0 })) })),
    });
    const parsed = api.parseResponse(1, 3, v, Reader.from(Buffer.from(body))) as {
      brokers: { nodeId: number; host: string; port: number; rack: string | null }[];
      controllerId: number;
      topics: {
        name: string;
        topicId?: string;
        partitions: { leaderId: number; leaderEpoch: number; isrNodes: number[] }[];
      }[];
    };
    expect(parsed.brokers).toEqual(BROKERS);
    expect(parsed.controllerId).toBe(2);
    expect(parsed.topics[0]?.name).toBe('demo');
    if (v >= 10) expect(parsed.topics[0]?.topicId?.replaceAll('-', '')).toBe(TOPIC_ID);
    expect(parsed.topics[0]?.partitions.map((p) => [p.leaderId, p.leaderEpoch, p.isrNodes])).toEqual([
      [1, 3, [1, 2]],
      [-1, 4, []],
    ]);
  });
});

describe('round trips and refusals', () => {
  it('every Metadata version decodes what it encodes, with defaults for fields it lacks', () => {
    for (let v = 0; v <= 12; v++) {
      const value = { throttleTimeMs: 0, brokers: BROKERS, clusterId: 'glassbox', controllerId: 2, topics: TOPICS };
      const back = decodeMessage(MetadataResponseData, v, encodeMessage(MetadataResponseData, v, value));
      expect(back.brokers).toEqual(BROKERS.map((b) => ({ ...b, rack: v >= 1 ? b.rack : null })));
      expect(back.controllerId).toBe(v >= 1 ? 2 : -1);
      const p0 = (back.topics as { partitions: { leaderEpoch: number }[] }[])[0]?.partitions[0];
      expect(p0?.leaderEpoch).toBe(v >= 7 ? 3 : -1);
    }
  });

  it('a null where a version allows none is refused with INVALID_REQUEST', () => {
    expect(() => encodeMessage(MetadataRequestData, 0, { topics: null })).toThrow(WireFormatError);
    expect(
      decodeMessage(MetadataRequestData, 1, encodeMessage(MetadataRequestData, 1, { topics: null })).topics,
    ).toBeNull();
  });

  it('bytes after the last field are ignored (RequestContext.parseRequest); a truncated body and an array longer than the bytes are INVALID_REQUEST', () => {
    const good = encodeMessage(MetadataRequestData, 4, { topics: [{ name: 'demo' }], allowAutoTopicCreation: true });
    const trailing = new Uint8Array([...good, 0]);
    expect(decodeMessage(MetadataRequestData, 4, trailing)).toEqual(decodeMessage(MetadataRequestData, 4, good));
    expect(() => decodeMessage(MetadataRequestData, 4, good.subarray(0, good.length - 2))).toThrow(WireFormatError);
    const huge = new Uint8Array([0x7f, 0xff, 0xff, 0xff, 0, 1]);
    expect(() => decodeMessage(MetadataRequestData, 4, huge)).toThrow(/claims/);
  });

  it("librdkafka 2.12's all-topics Metadata v12 body (rd_kafka_MetadataRequest0, issue #5049) reads as Kafka reads it", () => {
    // rd_kafka_buf_write_arraycnt_pos reserves an int32 (4 zero bytes) for the topic count; for
    // "all topics" on v9+ it is never finalized, so the body is 00 00 00 00, then
    // AllowAutoTopicCreation (1), IncludeTopicAuthorizedOperations (0) and the empty tag section.
    // Kafka's MetadataRequestData.read takes the first 0 as a null compact array, the next two as
    // the booleans and the third as the tag count: 3 bytes are left over, and ignored.
    const body = new Uint8Array([0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00]);
    expect(decodeMessage(MetadataRequestData, 12, body)).toEqual({
      topics: null,
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false, // v8-10 only: its default
      includeTopicAuthorizedOperations: false,
    });
    // Cut before its tag section it is still refused.
    expect(() => decodeMessage(MetadataRequestData, 12, body.subarray(0, 3))).toThrow(WireFormatError);
  });

  it('an unknown tag is skipped; tags out of order are refused', () => {
    // ApiVersions v3 request: two empty compact strings, then 1 tagged field: tag 9, 2 bytes.
    const withUnknown = new Uint8Array([1, 1, 1, 9, 2, 0xab, 0xcd]);
    expect(decodeMessage(ApiVersionsRequestData, 3, withUnknown)).toEqual({
      clientSoftwareName: '',
      clientSoftwareVersion: '',
    });
    const outOfOrder = new Uint8Array([1, 1, 2, 9, 0, 3, 0]);
    expect(() => decodeMessage(ApiVersionsRequestData, 3, outOfOrder)).toThrow(/ascend/);
  });

  it('a version outside the schema is UNSUPPORTED_VERSION', () => {
    expect(() => decodeMessage(ApiVersionsRequestData, 4, new Uint8Array())).toThrow(/UNSUPPORTED_VERSION/);
  });
});
