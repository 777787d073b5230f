/**
 * Fuzzing the wire decoder: whatever the bytes, decoding a message of any schema and version
 * returns a value or throws WireFormatError (Kafka's INVALID_REQUEST); it never hangs and never
 * allocates from a hostile length. Inputs are random bytes and valid messages with bytes flipped
 * or cut. Every case is seeded and the seed is in the test name; GLASSBOX_FUZZ_SEEDS=N runs more.
 */
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../codec/bytes';
import { Rng } from '../Rng';
import * as wire from './index';
import { peekRequestHeader, readRequestHeaderRest } from './headers';
import type { MessageSchema } from './schema';
import { decodeMessage, encodeMessage, WireFormatError } from './wireCodec';

const SEED_COUNT = Number(process.env.GLASSBOX_FUZZ_SEEDS ?? 24);
const SEEDS = Array.from({ length: SEED_COUNT }, (_, i) => 7000 + i);

const SAMPLES: [MessageSchema, Record<string, unknown>][] = [
  [wire.ApiVersionsRequestData, { clientSoftwareName: 'kcat', clientSoftwareVersion: '1.7.1' }],
  [
    wire.ApiVersionsResponseData,
    {
      errorCode: 0,
      apiKeys: [{ apiKey: 3, minVersion: 0, maxVersion: 12 }],
      throttleTimeMs: 0,
      finalizedFeaturesEpoch: 4,
    },
  ],
  [wire.MetadataRequestData, { topics: [{ name: 'demo' }, { name: 'orders' }], allowAutoTopicCreation: true }],
  [
    wire.MetadataResponseData,
    {
      brokers: [{ nodeId: 1, host: 'localhost', port: 9092, rack: null }],
      clusterId: 'glassbox',
      controllerId: 1,
      topics: [
        {
          errorCode: 0,
          name: 'demo',
          partitions: [
            { partitionIndex: 0, leaderId: 1, leaderEpoch: 0, replicaNodes: [1], isrNodes: [1], offlineReplicas: [] },
          ],
        },
      ],
    },
  ],
  [
    wire.ProduceRequestData,
    {
      acks: -1,
      timeoutMs: 1000,
      topicData: [{ name: 'demo', partitionData: [{ index: 0, records: new Uint8Array(70) }] }],
    },
  ],
  [
    wire.ProduceResponseData,
    {
      responses: [{ name: 'demo', partitionResponses: [{ index: 0, errorCode: 0, baseOffset: 5, recordErrors: [] }] }],
    },
  ],
  [
    wire.FetchRequestData,
    {
      maxWaitMs: 500,
      minBytes: 1,
      topics: [{ topic: 'demo', partitions: [{ partition: 0, fetchOffset: 3, partitionMaxBytes: 1024 }] }],
      forgottenTopicsData: [],
    },
  ],
  [
    wire.FetchResponseData,
    {
      responses: [
        {
          topic: 'demo',
          partitions: [{ partitionIndex: 0, highWatermark: 4, abortedTransactions: null, records: new Uint8Array(40) }],
        },
      ],
    },
  ],
  [
    wire.ListOffsetsRequestData,
    { replicaId: -1, topics: [{ name: 'demo', partitions: [{ partitionIndex: 0, timestamp: -2 }] }] },
  ],
  [
    wire.ListOffsetsResponseData,
    { topics: [{ name: 'demo', partitions: [{ partitionIndex: 0, errorCode: 0, offset: 3 }] }] },
  ],
  [wire.InitProducerIdRequestData, { transactionalId: null, transactionTimeoutMs: 60000 }],
  [wire.InitProducerIdResponseData, { errorCode: 0, producerId: 1000, producerEpoch: 0 }],
  [
    wire.OffsetForLeaderEpochRequestData,
    {
      replicaId: -1,
      topics: [{ topic: 'demo', partitions: [{ partition: 0, currentLeaderEpoch: 2, leaderEpoch: 1 }] }],
    },
  ],
  [
    wire.OffsetForLeaderEpochResponseData,
    { topics: [{ topic: 'demo', partitions: [{ errorCode: 0, partition: 0, leaderEpoch: 1, endOffset: 9 }] }] },
  ],
  [
    wire.JoinGroupRequestData,
    {
      groupId: 'g',
      sessionTimeoutMs: 10_000,
      memberId: '',
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: new Uint8Array(9) }],
    },
  ],
  [
    wire.JoinGroupResponseData,
    {
      generationId: 1,
      protocolName: 'range',
      leader: 'm',
      memberId: 'm',
      members: [{ memberId: 'm', metadata: new Uint8Array(3) }],
    },
  ],
  [wire.DescribeGroupsRequestData, { groups: ['g', 'h'], includeAuthorizedOperations: true }],
  [
    wire.DescribeGroupsResponseData,
    {
      groups: [
        {
          groupId: 'g',
          groupState: 'Stable',
          protocolType: 'consumer',
          protocolData: 'range',
          members: [
            {
              memberId: 'm',
              clientId: 'c',
              clientHost: '/h',
              memberMetadata: new Uint8Array(5),
              memberAssignment: new Uint8Array(7),
            },
          ],
        },
      ],
    },
  ],
  [wire.ListGroupsRequestData, { statesFilter: ['Stable'] }],
  [wire.ListGroupsResponseData, { groups: [{ groupId: 'g', protocolType: 'consumer', groupState: 'Empty' }] }],
  [
    wire.CreateTopicsRequestData,
    {
      topics: [
        {
          name: 'demo',
          numPartitions: -1,
          replicationFactor: -1,
          assignments: [{ partitionIndex: 0, brokerIds: [1, 2] }],
          configs: [{ name: 'cleanup.policy', value: 'compact' }],
        },
      ],
      validateOnly: true,
    },
  ],
  [
    wire.CreateTopicsResponseData,
    {
      topics: [
        {
          name: 'demo',
          errorMessage: null,
          numPartitions: 3,
          configs: [{ name: 'retention.ms', value: '1', readOnly: false, configSource: 1, isSensitive: false }],
        },
      ],
    },
  ],
  [
    wire.DescribeConfigsRequestData,
    { resources: [{ resourceType: 2, resourceName: 'demo', configurationKeys: null }], includeSynonyms: true },
  ],
  [
    wire.DescribeConfigsResponseData,
    {
      results: [
        {
          resourceType: 2,
          resourceName: 'demo',
          configs: [
            { name: 'retention.ms', value: '1', synonyms: [{ name: 'log.retention.ms', value: '1', source: 4 }] },
          ],
        },
      ],
    },
  ],
  [wire.DescribeClusterRequestData, { includeClusterAuthorizedOperations: true, endpointType: 1 }],
  [
    wire.DescribeClusterResponseData,
    { clusterId: 'glassbox', controllerId: 1, brokers: [{ brokerId: 1, host: '127.0.0.1', port: 19300, rack: null }] },
  ],
];

function outcome(schema: MessageSchema, version: number, bytes: Uint8Array): 'ok' | 'invalid' {
  try {
    decodeMessage(schema, version, bytes);
    return 'ok';
  } catch (e) {
    if (e instanceof WireFormatError) return 'invalid';
    throw e;
  }
}

function randomBytes(rng: Rng, n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = rng.nextInt(256);
  return b;
}

describe('wire decoder fuzz', () => {
  it.each(SEEDS)('seed %i: random bytes, flipped bytes and cut messages give a value or INVALID_REQUEST', (seed) => {
    const rng = new Rng(seed);
    const seen = { ok: 0, invalid: 0 };
    for (const [schema, value] of SAMPLES) {
      for (let v = schema.valid.lo; v <= schema.valid.hi; v++) {
        seen[outcome(schema, v, randomBytes(rng, rng.nextInt(64)))]++;
        const good = encodeMessage(schema, v, value);
        const flipped = good.slice();
        for (let k = 0; k < 1 + rng.nextInt(3); k++) flipped[rng.nextInt(flipped.length)] = rng.nextInt(256);
        seen[outcome(schema, v, flipped)]++;
        seen[outcome(schema, v, good.subarray(0, rng.nextInt(good.length)))]++;
      }
    }
    expect(seen.ok + seen.invalid).toBeGreaterThan(0);
    expect(seen.invalid).toBeGreaterThan(0);
  });

  it.each(SEEDS)('seed %i: request headers of random bytes give a header or INVALID_REQUEST', (seed) => {
    const rng = new Rng(seed);
    for (let i = 0; i < 50; i++) {
      const r = new ByteReader(randomBytes(rng, rng.nextInt(24)));
      try {
        readRequestHeaderRest(r, peekRequestHeader(r), rng.nextInt(3));
      } catch (e) {
        expect(e).toBeInstanceOf(WireFormatError);
      }
    }
  });
});
