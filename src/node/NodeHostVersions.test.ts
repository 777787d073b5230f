/**
 * What the Node host takes from a request beyond its fields: the version a client spoke (which
 * special timestamps ListOffsets knows) and the topic ids the controller keeps in ZooKeeper.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeMessage,
  encodeMessage,
  encodeRecordBatch,
  FetchRequestData,
  FetchResponseData,
  ListOffsetsRequestData,
  ListOffsetsResponseData,
  MetadataRequestData,
  MetadataResponseData,
  ProduceRequestData,
  ProduceResponseData,
} from '../engine/index';
import type { NodeHost } from './NodeHost';
import { exchange, startDemoHost, until } from './wireTesting';
import { freePortRange } from './freePorts';

const BASE_PORT = await freePortRange(8);
let host: NodeHost;

beforeAll(async () => {
  host = await startDemoHost(BASE_PORT);
});
afterAll(async () => {
  await host?.stop();
});

/** Sends a request body to the leader of `topic`-0 and answers its response body. */
async function askLeaderOf(
  topic: string,
  apiKey: number,
  apiVersion: number,
  flexible: boolean,
  body: Uint8Array,
): Promise<Uint8Array> {
  const leader = host.engine.partitionState(topic, 0).leader;
  return exchange(BASE_PORT + leader - 1, { apiKey, apiVersion, flexible, body });
}

/** Kafka's ListOffsetsRequest.MAX_TIMESTAMP (KIP-734). */
const MAX_TIMESTAMP = -3;

async function listOffsets(version: number, timestamp: number): Promise<{ errorCode: number; offset: number }> {
  const body = encodeMessage(ListOffsetsRequestData, version, {
    replicaId: -1,
    isolationLevel: 0,
    topics: [{ name: 'demo', partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp }] }],
  });
  const answer = await askLeaderOf('demo', 2, version, version >= 6, body);
  const r = decodeMessage(ListOffsetsResponseData, version, answer) as {
    topics: { partitions: { errorCode: number; offset: number }[] }[];
  };
  const p = r.topics[0]?.partitions[0];
  if (!p) throw new Error('no partition in the answer');
  return p;
}

describe('the Node host answers each request as the version it came in', () => {
  // KafkaApis.handleListOffsetRequestV1AndAbove: a special timestamp newer than the request's
  // version (timestampMinSupportedVersion: MAX_TIMESTAMP from v7) is UNSUPPORTED_VERSION for that
  // partition (ListOffsetsRequestTest.testListOffsetsMaxTimeStampOldestVersion).
  it('ListOffsets MAX_TIMESTAMP (-3) is UNSUPPORTED_VERSION at v1 and answered at v7', async () => {
    expect((await listOffsets(1, MAX_TIMESTAMP)).errorCode).toBe(35);
    expect(await listOffsets(7, MAX_TIMESTAMP)).toMatchObject({ errorCode: 0 });
    expect(await listOffsets(1, -1)).toMatchObject({ errorCode: 0 });
  });

  // KIP-516 in ZooKeeper mode: the controller draws a topic's id at creation and keeps it in
  // /brokers/topics/<name> (TopicZNode v3 `topic_id`); Metadata v10+ names that id.
  it('Metadata v12 names the topic id the controller keeps in the topic znode', async () => {
    const body = encodeMessage(MetadataRequestData, 12, {
      topics: [{ topicId: '00000000000000000000000000000000', name: 'demo' }],
      allowAutoTopicCreation: false,
      includeTopicAuthorizedOperations: false,
    });
    const answer = await exchange(BASE_PORT, { apiKey: 3, apiVersion: 12, flexible: true, body });
    const r = decodeMessage(MetadataResponseData, 12, answer) as { topics: { name: string; topicId: string }[] };
    const id = host.engine.topicId('demo');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.topics.find((t) => t.name === 'demo')?.topicId).toBe(id);
  });
});

/** One record in a batch of `codec`, as a producer sends it (baseOffset 0, no producer id). */
function batchOf(codec: 'none' | 'zstd'): Uint8Array {
  return encodeRecordBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    attributes: codec === 'zstd' ? 4 : 0, // attributes bits 0-2: the codec id
    lastOffsetDelta: 0,
    baseTimestamp: 1_700_000_000_000,
    maxTimestamp: 1_700_000_000_000,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: [
      { attributes: 0, timestampDelta: 0, offsetDelta: 0, key: null, value: new Uint8Array([1, 2]), headers: [] },
    ],
  });
}

async function produce(version: number, topic: string, records: Uint8Array): Promise<number[]> {
  const body = encodeMessage(ProduceRequestData, version, {
    transactionalId: null,
    acks: 1,
    timeoutMs: 5000,
    topicData: [{ name: topic, partitionData: [{ index: 0, records }] }],
  });
  const answer = await askLeaderOf(topic, 0, version, version >= 9, body);
  const r = decodeMessage(ProduceResponseData, version, answer) as {
    responses: { partitionResponses: { errorCode: number }[] }[];
  };
  return r.responses.flatMap((t) => t.partitionResponses.map((p) => p.errorCode));
}

async function fetchError(version: number, topic: string): Promise<number | undefined> {
  const body = encodeMessage(FetchRequestData, version, {
    replicaId: -1,
    maxWaitMs: 0,
    minBytes: 0,
    maxBytes: 1 << 20,
    isolationLevel: 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [{ topic, partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20 }] }],
    forgottenTopicsData: [],
    rackId: '',
  });
  const answer = await askLeaderOf(topic, 1, version, version >= 12, body);
  const r = decodeMessage(FetchResponseData, version, answer) as {
    responses: { partitions: { errorCode: number }[] }[];
  };
  return r.responses[0]?.partitions[0]?.errorCode;
}

describe('zstd and the versions that may carry it', () => {
  // ProduceRequest.validateRecords, as KafkaApis.handleProduceRequest applies it per partition:
  // "Produce requests with version N are not allowed to use ZStandard compression" before v7.
  it('Produce of a zstd batch is UNSUPPORTED_COMPRESSION_TYPE (76) below v7 and appended from v7', async () => {
    expect(await produce(3, 'demo', batchOf('zstd'))).toEqual([76]);
    expect(await produce(6, 'demo', batchOf('zstd'))).toEqual([76]);
    expect(await produce(6, 'demo', batchOf('none'))).toEqual([0]);
    expect(await produce(7, 'demo', batchOf('zstd'))).toEqual([0]);
  });

  // KafkaApis.handleFetchRequest, maybeConvertFetchedData: a topic whose compression.type is zstd
  // is not served to Fetch below v10.
  it('Fetch of a topic with compression.type zstd is UNSUPPORTED_COMPRESSION_TYPE below v10', async () => {
    host.engine.createTopic({
      name: 'zstd-topic',
      partitions: 1,
      replicationFactor: 1,
      configs: { 'compression.type': 'zstd' },
    });
    await until(() => host.engine.partitionState('zstd-topic', 0).leader > 0, 10_000);
    expect(await produce(7, 'zstd-topic', batchOf('none'))).toEqual([0]);
    expect(await fetchError(9, 'zstd-topic')).toBe(76);
    expect(await fetchError(10, 'zstd-topic')).toBe(0);
    expect(await fetchError(9, 'demo')).toBe(0);
  });
});
