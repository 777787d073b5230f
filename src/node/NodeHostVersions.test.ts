/**
 * What the Node host takes from a request beyond its fields: the version a client spoke (which
 * special timestamps ListOffsets knows) and the topic ids the controller keeps in ZooKeeper.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeMessage,
  encodeMessage,
  ListOffsetsRequestData,
  ListOffsetsResponseData,
  MetadataRequestData,
  MetadataResponseData,
} from '../engine/index';
import type { NodeHost } from './NodeHost';
import { exchange, startDemoHost } from './wireTesting';
import { freePortRange } from './freePorts';

const BASE_PORT = await freePortRange(8);
let host: NodeHost;

beforeAll(async () => {
  host = await startDemoHost(BASE_PORT);
});
afterAll(async () => {
  await host?.stop();
});

/** Kafka's ListOffsetsRequest.MAX_TIMESTAMP (KIP-734). */
const MAX_TIMESTAMP = -3;

async function listOffsets(version: number, timestamp: number): Promise<{ errorCode: number; offset: number }> {
  const leader = host.engine.partitionState('demo', 0).leader;
  const body = encodeMessage(ListOffsetsRequestData, version, {
    replicaId: -1,
    isolationLevel: 0,
    topics: [{ name: 'demo', partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp }] }],
  });
  const answer = await exchange(BASE_PORT + leader - 1, {
    apiKey: 2,
    apiVersion: version,
    flexible: version >= 6,
    body,
  });
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
